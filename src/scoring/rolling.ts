import { mean, std } from "./vector.js";

/**
 * Rolling statistics of a per-exped series over a trailing window of `w` expeds: value i (for
 * i ≥ w-1, so there are n-w+1 of them) covers x[i-w+1..i]. Rolling mean = the window's mean;
 * rolling Sharpe = mean / std of the window (population std, ddof 0, not annualised; 0 when the
 * std is 0). Empty when the series is shorter than the window.
 *
 * @example rollingMean([1, 2, 3, 4], 2) // [1.5, 2.5, 3.5]
 * @example rollingSharpe([1, 2, 3, 4], 2) // [3, 5, 7]
 */
export function rollingMean(series: ArrayLike<number>, w: number): number[] {
  return windows(series, w).map((x) => mean(x, w));
}

export function rollingSharpe(series: ArrayLike<number>, w: number): number[] {
  return windows(series, w).map((x) => {
    const sd = std(x, w);
    return sd === 0 ? 0 : mean(x, w) / sd;
  });
}

function windows(series: ArrayLike<number>, w: number): Float64Array[] {
  if (!Number.isInteger(w) || w < 1) throw new Error(`rolling window ${w} is not a whole number of expeds ≥ 1`);
  const x = Float64Array.from(series);
  return Array.from({ length: Math.max(0, x.length - w + 1) }, (_, i) => x.subarray(i, i + w));
}
