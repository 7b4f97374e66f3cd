import { trailingWindows } from "./trailing-windows.js";
import { mean } from "./vector.js";

/**
 * Rolling mean of a per-exped series over a trailing window of `w` expeds: value k is the mean of
 * x[k..k+w-1], placed at the window's last exped; n-w+1 values, none when the series is shorter.
 *
 * @example rollingMean([1, 2, 3, 4], 2) // [1.5, 2.5, 3.5]
 */
export function rollingMean(series: ArrayLike<number>, w: number): number[] {
  return trailingWindows(series, w).map((x) => mean(x, w));
}
