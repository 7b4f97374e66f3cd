/**
 * Small loops over the first `n` entries of typed arrays, shared by every kernel. Each sum runs
 * left to right in one fixed order, so the same inputs always give the same bits.
 */

/** Σ a_i·b_i. The one dot product of the engine (AIMC relies on it being the same routine). */
export function dot(a: Float64Array, b: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/** Σ x_i / n. */
export function mean(x: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += x[i];
  return s / n;
}

/** Population standard deviation (ddof 0). */
export function std(x: Float64Array, n: number): number {
  const m = mean(x, n);
  let s = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i] - m;
    s += d * d;
  }
  return Math.sqrt(s / n);
}

/** out_i = x_i - mean(x); answers the mean. `out` may be `x`. */
export function centre(x: Float64Array, n: number, out: Float64Array): number {
  const m = mean(x, n);
  for (let i = 0; i < n; i++) out[i] = x[i] - m;
  return m;
}

/** True when all of x_0..x_{n-1} are the same value (zero variance, no rounding involved). */
export function isConstant(x: Float64Array, n: number): boolean {
  const first = x[0];
  for (let i = 1; i < n; i++) if (x[i] !== first) return false;
  return true;
}

/** out_i = src[rows_i]. */
export function gather(src: Float64Array, rows: Int32Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) out[i] = src[rows[i]];
}

/** The indices, in order, at which `a` (and `b`, when given) is finite. */
export function finiteRows(a: Float64Array, b?: Float64Array): number[] {
  const rows: number[] = [];
  for (let i = 0; i < a.length; i++) if (Number.isFinite(a[i]) && (b === undefined || Number.isFinite(b[i]))) rows.push(i);
  return rows;
}

/** A new array of x's values at `rows`, in that order. */
export function valuesAt(x: Float64Array, rows: readonly number[]): Float64Array {
  const out = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) out[k] = x[rows[k]];
  return out;
}
