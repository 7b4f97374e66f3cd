import { isConstant, mean } from "./vector.js";

/**
 * Pearson correlation `Σ(x-x̄)(y-ȳ) / √(Σ(x-x̄)² · Σ(y-ȳ)²)` over the first n entries,
 * two-pass for accuracy and clamped to [-1, 1] against rounding. 0 when n < 2 or either side has
 * zero variance (all values equal, tested exactly rather than through a rounded variance).
 */
export function pearson(x: Float64Array, y: Float64Array, n: number): number {
  if (n < 2 || isConstant(x, n) || isConstant(y, n)) return 0;
  const mx = mean(x, n);
  const my = mean(y, n);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return 0;
  const r = sxy / (Math.sqrt(sxx) * Math.sqrt(syy));
  return r > 1 ? 1 : r < -1 ? -1 : r;
}
