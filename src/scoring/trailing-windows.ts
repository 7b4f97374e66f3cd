/**
 * The trailing windows of `w` values of a series: window i (for i ≥ w-1, so n-w+1 of them) is
 * x[i-w+1..i], a view, not a copy. None when the series is shorter than the window.
 *
 * @example trailingWindows([1, 2, 3], 2) // [Float64Array [1, 2], Float64Array [2, 3]]
 */
export function trailingWindows(series: ArrayLike<number>, w: number): Float64Array[] {
  if (!Number.isInteger(w) || w < 1) throw new Error(`rolling window ${w} is not a whole number of expeds ≥ 1`);
  const x = Float64Array.from(series);
  return Array.from({ length: Math.max(0, x.length - w + 1) }, (_, i) => x.subarray(i, i + w));
}
