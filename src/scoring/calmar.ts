/**
 * Calmar ratio `mean / max drawdown`, both per exped (the mean of the per-exped series over the
 * additive max drawdown of its cumulative sum), not annualised; null when the drawdown is 0 (the
 * series never fell). Investopedia's and numerblox's Calmar divide an annual return by a
 * compounded drawdown; this one stays in the score's own units per exped.
 *
 * @example calmar(0.01, 0.04) // 0.25
 */
export function calmar(mean: number, maxDrawdown: number): number | null {
  return maxDrawdown === 0 ? null : mean / maxDrawdown;
}
