import { dot, gather, mean } from "./vector.js";

/**
 * The least-squares projection off `span([1 | core])` over one row set, built once per exped and
 * row set, for NCORR's residual `r = gp - X·β`.
 *
 * Usual case ("normal"): the intercept is handled by centring (r = gpc - Xc·β, Xc the centred
 * columns), and β solves the centred normal equations `Xcᵀ·Xc·β = Xcᵀ·gpc` through the Cholesky
 * factor L of the k×k Gram matrix: O(k²·n) once, O(k·n) per prediction. All-zero and constant
 * columns lie in the span already and are dropped.
 *
 * Normal equations square the condition number, so they are used only when every kept column keeps
 * at least `WELL_POSED` of its squared norm outside the span of the intercept and the columns before
 * it (Cholesky pivot ≥ WELL_POSED·Σx², with Σx² = Σxc² + n·mean²); the residual is then accurate to about 1e-13 of |gp|.
 * Otherwise (duplicated or nearly dependent columns, fewer rows than columns) the fit is an
 * orthonormal basis by Gram-Schmidt ("orthonormal"), which drops dependent columns robustly.
 */
export type CoreFit =
  | { kind: "normal"; n: number; k: number; cols: Float64Array; chol: Float64Array }
  | { kind: "orthonormal"; n: number; k: number; q: Float64Array };

/** Smallest Cholesky pivot, relative to the column's Σx², for which the normal equations are used. */
const WELL_POSED = 1e-6;

export function coreFit(core: Float64Array[], rows: Int32Array, n: number): CoreFit {
  return normalFit(core, rows, n) ?? orthonormalFit(core, rows, n);
}

/** `out = gp - X·β` for the least-squares β (see CoreFit). `out` must not be `gp`. */
export function residualise(gp: Float64Array, n: number, fit: CoreFit, out: Float64Array): void {
  if (fit.kind === "orthonormal") {
    for (let i = 0; i < n; i++) out[i] = gp[i];
    project(out, n, fit.q, fit.k);
    return;
  }
  const { k, cols, chol } = fit;
  const m = n === 0 ? 0 : mean(gp, n);
  for (let i = 0; i < n; i++) out[i] = gp[i] - m;
  const beta = new Float64Array(k);
  dotsWith(cols, k, n, out, beta);
  choleskySolve(chol, k, beta);
  subtractColumns(cols, k, n, beta, out);
}

/**
 * `out -= cols·beta`, columns j = 0..k-1 subtracted from each entry in that order, as one column
 * at a time would, so the bits are the same; four columns per pass over `out` load and store it
 * a quarter as often.
 */
function subtractColumns(cols: Float64Array, k: number, n: number, beta: Float64Array, out: Float64Array): void {
  let j = 0;
  for (; j + 4 <= k; j += 4) {
    const a = j * n;
    const b0 = beta[j];
    const b1 = beta[j + 1];
    const b2 = beta[j + 2];
    const b3 = beta[j + 3];
    for (let i = 0; i < n; i++) out[i] = out[i] - b0 * cols[a + i] - b1 * cols[a + n + i] - b2 * cols[a + 2 * n + i] - b3 * cols[a + 3 * n + i];
  }
  for (; j < k; j++) {
    const a = j * n;
    const b = beta[j];
    for (let i = 0; i < n; i++) out[i] -= b * cols[a + i];
  }
}

/** The centred-normal-equations fit, or null when some column is too close to the span of the others. */
function normalFit(core: Float64Array[], rows: Int32Array, n: number): CoreFit | null {
  const cols = new Float64Array(core.length * n);
  const means: number[] = [];
  let k = 0;
  for (const feature of core) {
    if (n === 0) break;
    // gather, isConstant and mean in one pass; the sum runs left to right as in `mean`
    const a = k * n;
    const first = feature[rows[0]];
    let sum = 0;
    let constant = true;
    for (let i = 0; i < n; i++) {
      const v = feature[rows[i]];
      cols[a + i] = v;
      sum += v;
      if (i > 0 && v !== first) constant = false;
    }
    if (constant) continue;
    const m = sum / n;
    for (let i = a; i < a + n; i++) cols[i] -= m;
    means.push(m);
    k++;
  }
  // n centred columns (or more) lie in an (n - 1)-dimensional space: the normal equations are singular.
  if (k > 0 && k >= n) return null;
  // Row-major lower-triangular L with L·Lᵀ = Xcᵀ·Xc, column by column.
  const gram = upperGram(cols, k, n);
  const chol = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    for (let i = j; i < k; i++) {
      let s = gram[j * k + i];
      for (let l = 0; l < j; l++) s -= chol[i * k + l] * chol[j * k + l];
      if (i === j) {
        if (!(s >= WELL_POSED * (gram[j * k + j] + n * means[j] * means[j]))) return null;
        chol[j * k + j] = Math.sqrt(s);
      } else chol[i * k + j] = s / chol[j * k + j];
    }
  }
  return { kind: "normal", n, k, cols: cols.subarray(0, k * n), chol };
}

/**
 * `out[i] = dot(col_i, v)` for the columns i = 0..k-1 of `cols` (k columns of length n). Four
 * sums run in each pass over the rows (independent additions overlap instead of waiting on each
 * other); each is still the left-to-right sum of `dot`, so the values are bit-identical to it.
 */
function dotsWith(cols: Float64Array, k: number, n: number, v: Float64Array, out: Float64Array): void {
  let i = 0;
  for (; i + 4 <= k; i += 4) {
    const a = i * n;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let r = 0; r < n; r++) {
      const x = v[r];
      s0 += cols[a + r] * x;
      s1 += cols[a + n + r] * x;
      s2 += cols[a + 2 * n + r] * x;
      s3 += cols[a + 3 * n + r] * x;
    }
    out[i] = s0;
    out[i + 1] = s1;
    out[i + 2] = s2;
    out[i + 3] = s3;
  }
  for (; i < k; i++) out[i] = dot(cols.subarray(i * n, (i + 1) * n), v, n);
}

/**
 * The upper triangle (i ≥ j at `j·k + i`) of `Xcᵀ·Xc` for the k columns of `cols` (length n each),
 * each entry the left-to-right sum of `dot` (products commute exactly), so bit-identical to it.
 * Tiles of 2 × 4 columns: eight sums per pass over the rows from six loads, instead of one or
 * four sums per pass; a tile running past the last column repeats it and drops those sums.
 */
function upperGram(cols: Float64Array, k: number, n: number): Float64Array {
  const gram = new Float64Array(k * k);
  const last = k - 1;
  for (let j = 0; j < k; j += 2) {
    const j1 = Math.min(j + 1, last);
    const a = j * n;
    const b = j1 * n;
    for (let i = j; i < k; i += 4) {
      const c0 = i * n;
      const c1 = Math.min(i + 1, last) * n;
      const c2 = Math.min(i + 2, last) * n;
      const c3 = Math.min(i + 3, last) * n;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0; // prettier-ignore
      for (let r = 0; r < n; r++) {
        const x = cols[a + r];
        const y = cols[b + r];
        const p0 = cols[c0 + r];
        const p1 = cols[c1 + r];
        const p2 = cols[c2 + r];
        const p3 = cols[c3 + r];
        s00 += p0 * x;
        s01 += p1 * x;
        s02 += p2 * x;
        s03 += p3 * x;
        s10 += p0 * y;
        s11 += p1 * y;
        s12 += p2 * y;
        s13 += p3 * y;
      }
      const sums = [s00, s01, s02, s03, s10, s11, s12, s13];
      for (let m = 0; m < 4 && i + m < k; m++) {
        gram[j * k + i + m] = sums[m];
        if (j1 > j && i + m >= j1) gram[j1 * k + i + m] = sums[4 + m];
      }
    }
  }
  return gram;
}

/** Solves `L·Lᵀ·x = b` in place (L row-major lower-triangular k×k). */
function choleskySolve(chol: Float64Array, k: number, b: Float64Array): void {
  for (let i = 0; i < k; i++) {
    let s = b[i];
    for (let l = 0; l < i; l++) s -= chol[i * k + l] * b[l];
    b[i] = s / chol[i * k + i];
  }
  for (let i = k - 1; i >= 0; i--) {
    let s = b[i];
    for (let l = i + 1; l < k; l++) s -= chol[l * k + i] * b[l];
    b[i] = s / chol[i * k + i];
  }
}

/**
 * Orthonormal columns spanning `[1 | core]` over the rows: Gram-Schmidt with re-orthogonalisation
 * ("twice is enough") of the intercept and the core columns; a column whose norm falls below 1e-10
 * of its original norm after projection is dependent and dropped, and so is every column after the
 * n-th kept (fewer rows than columns: the basis already spans them all).
 */
function orthonormalFit(core: Float64Array[], rows: Int32Array, n: number): CoreFit {
  const q = new Float64Array((core.length + 1) * n);
  let k = 0;
  // Once n columns are kept they span every vector of n rows: every later column is dependent.
  for (let c = -1; c < core.length && k < n; c++) {
    const v = q.subarray(k * n, (k + 1) * n);
    if (c < 0) v.fill(1);
    else gather(core[c], rows, n, v);
    const norm0 = Math.sqrt(dot(v, v, n));
    if (norm0 === 0) continue;
    for (let pass = 0; pass < 2; pass++) project(v, n, q, k);
    const norm = Math.sqrt(dot(v, v, n));
    if (norm <= 1e-10 * norm0) continue;
    const inv = 1 / norm;
    for (let i = 0; i < n; i++) v[i] *= inv;
    k++;
  }
  return { kind: "orthonormal", n, k, q: q.slice(0, k * n) };
}

/** Removes from v its components along the first k columns of q, one column at a time (modified Gram-Schmidt). */
function project(v: Float64Array, n: number, q: Float64Array, k: number): void {
  for (let j = 0; j < k; j++) {
    const qj = q.subarray(j * n, (j + 1) * n);
    const c = dot(qj, v, n);
    for (let i = 0; i < n; i++) v[i] -= c * qj[i];
  }
}
