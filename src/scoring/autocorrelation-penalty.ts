/**
 * The autocorrelation penalty of smart Sharpe, `k = √(1 + 2 · Σ_{i=1}^{n-1} ((n - i) / n) · ρ^i)`
 * for n values with lag-1 autocorrelation ρ: √(n·Var(mean)/σ²) of an AR(1) series. 1 at ρ = 0;
 * never NaN (a rounding below 0 counts 0).
 *
 * @example autocorrelationPenalty(-0.5, 4) // √0.4375 = 0.661…
 */
export function autocorrelationPenalty(rho: number, n: number): number {
  let sum = 0;
  let power = 1;
  for (let i = 1; i < n; i++) {
    power *= rho;
    sum += ((n - i) / n) * power;
  }
  return Math.sqrt(Math.max(0, 1 + 2 * sum));
}
