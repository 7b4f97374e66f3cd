import { autocorrelationPenalty } from "./autocorrelation-penalty.js";
import { lag1Autocorrelation } from "./autocorrelation.js";
import { isConstant, mean, std } from "./vector.js";

/**
 * Smart Sharpe: the Sharpe ratio `mean / std` (std population, ddof 0, per exped, not annualised)
 * divided by the autocorrelation penalty
 * `k = √(1 + 2 · Σ_{i=1}^{n-1} ((n - i) / n) · ρ^i)`, `ρ` the lag-1 autocorrelation. For a series
 * whose values follow one another (ρ > 0) the mean is less certain than its std says, so k > 1 and
 * the ratio shrinks; k² is n·Var(mean)/σ² of an AR(1) series. 0 when std or k is 0 (a constant
 * series has std 0 exactly, as in `seriesDiagnostics`).
 * numerblox divides by the ddof-1 std instead: theirs = ours · √((n-1)/n).
 *
 * @example smartSharpe([0.01, 0.03, 0.02, 0.04]) // ρ = -0.5, k = √0.4375: Sharpe 2.236… / 0.661… = 3.380…
 */
export function smartSharpe(series: ArrayLike<number>): number {
  const x = Float64Array.from(series);
  const n = x.length;
  if (n === 0) return 0;
  const sd = isConstant(x, n) ? 0 : std(x, n);
  const k = autocorrelationPenalty(lag1Autocorrelation(x), n);
  return sd === 0 || k === 0 ? 0 : mean(x, n) / sd / k;
}
