import { finiteRows } from "./vector.js";

/**
 * The rows a top/bottom score keeps: the `count` rows with the lowest and the `count` with the
 * highest finite prediction, ties broken by id in byte order, returned in row order; every finite
 * row when 2·count reaches their number.
 *
 * @example topBottomRows(Float64Array.of(0.5, 0.1, 0.9, 0.3, 0.7), ["a", "b", "c", "d", "e"], 1) // [1, 2]
 */
export function topBottomRows(prediction: Float64Array, ids: readonly string[], count: number): number[] {
  if (ids.length !== prediction.length) throw new Error(`prediction has ${prediction.length} values for ${ids.length} ids`);
  const finite = finiteRows(prediction);
  if (2 * count >= finite.length) return finite;
  finite.sort((a, b) => prediction[a] - prediction[b] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  return [...finite.slice(0, count), ...finite.slice(finite.length - count)].sort((a, b) => a - b);
}
