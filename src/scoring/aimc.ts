import { dot } from "./vector.js";

/**
 * AIMC = `(1/n)·Σ r_i·tc_i`, with `r = gp - (Σgp·gb / Σgb·gb)·gb` (r = gp when Σgb·gb = 0),
 * `gp = g(p)`, `gb = g(b)` over the same rows and `tc = t - mean(t)`: the covariance with the
 * target of the prediction orthogonalised against the designated benchmark.
 *
 * Both dot products go through the same `dot`, so when gp and gb are the same values (p equal to
 * b, or any strictly increasing function of it) the ratio is exactly 1, r is exactly 0 and AIMC
 * is exactly 0.
 */
export function aimcOfGaussian(gp: Float64Array, gb: Float64Array, tc: Float64Array, n: number): number {
  if (n < 2) return 0;
  const gg = dot(gb, gb, n);
  const beta = gg === 0 ? 0 : dot(gp, gb, n) / gg;
  let s = 0;
  for (let i = 0; i < n; i++) s += (gp[i] - beta * gb[i]) * tc[i];
  return s / n;
}
