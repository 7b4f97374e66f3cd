/**
 * How many expeds the deepest drawdown lasts: from the last exped at the peak before its trough
 * (the first deepest, as `maxDrawdown` picks it) to the first exped after the trough whose
 * cumulative sum is back at or above that peak, or to the last exped when it never is. 0 when the
 * series never falls below its peak.
 *
 * @example maxDrawdownDuration([1, -0.5, 0.3, 0.4]) // peak at 0, trough at 1, back at 3: 3
 */
export function maxDrawdownDuration(series: ArrayLike<number>): number {
  const n = series.length;
  let cum = 0;
  let peak = -Infinity;
  let peakAt = -1;
  let worst = 0;
  let from = -1;
  let trough = -1;
  const cums: number[] = [];
  for (let i = 0; i < n; i++) {
    cum += series[i];
    cums.push(cum);
    if (cum >= peak) [peak, peakAt] = [cum, i];
    if (peak - cum > worst) [worst, from, trough] = [peak - cum, peakAt, i];
  }
  if (trough < 0) return 0;
  for (let i = trough + 1; i < n; i++) if (cums[i] >= cums[from]) return i - from;
  return n - 1 - from;
}
