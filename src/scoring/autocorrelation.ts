import { pearson } from "./pearson.js";

/**
 * Lag-1 autocorrelation `ρ = pearson(x[0..n-2], x[1..n-1])`: numpy's
 * `np.corrcoef(x[:-1], x[1:])[0, 1]`, each side centred on its own mean (not pandas'
 * `Series.autocorr`, which is the same formula). 0 under 3 values or with either side constant.
 *
 * @example lag1Autocorrelation([1, 2, 3, 4]) // 1
 */
export function lag1Autocorrelation(series: ArrayLike<number>): number {
  const x = Float64Array.from(series);
  const n = x.length;
  return n < 3 ? 0 : pearson(x.subarray(0, n - 1), x.subarray(1), n - 1);
}
