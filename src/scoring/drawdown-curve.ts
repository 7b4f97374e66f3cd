/**
 * The drawdown of a series' cumulative sum, exped by exped: `d_i = cummax(c)_i - c_i ≥ 0`,
 * `c = cumsum(x)`, the running peak starting at the first value (no 0 before it). Additive, not
 * compounded: numerblox's drawdown is of `cumprod(1 + x)` relative to its peak.
 *
 * @example drawdownCurve([0.02, -0.01, 0.03, -0.04]) // [0, 0.01, 0, 0.04]
 */
export function drawdownCurve(series: ArrayLike<number>): number[] {
  const out: number[] = [];
  let cum = 0;
  let peak = -Infinity;
  for (let i = 0; i < series.length; i++) {
    cum += series[i];
    if (cum > peak) peak = cum;
    out.push(peak - cum);
  }
  return out;
}
