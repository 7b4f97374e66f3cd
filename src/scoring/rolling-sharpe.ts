import { trailingWindows } from "./trailing-windows.js";
import { isConstant, mean, std } from "./vector.js";

/**
 * Rolling Sharpe of a per-exped series over a trailing window of `w` expeds: each window's
 * mean / std (population std, ddof 0, not annualised; 0 for a flat window), placed at the
 * window's last exped; n-w+1 values, none when the series is shorter.
 *
 * @example rollingSharpe([1, 2, 3, 4], 2) // [3, 5, 7]
 */
export function rollingSharpe(series: ArrayLike<number>, w: number): number[] {
  return trailingWindows(series, w).map((x) => (isConstant(x, w) ? 0 : mean(x, w) / std(x, w)));
}
