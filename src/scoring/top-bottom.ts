import { corrOfGaussian, poweredTarget } from "./corr.js";
import { gaussianise } from "./gaussian.js";

/**
 * Top/bottom CORR (numerai-tools' `numerai_corr(..., top_bottom=count)`, numerblox's TB200):
 * `pearson(s(g(p))_R, s(tc)_R)` where `g(p)` and `tc = t - mean(t)` are computed over every row
 * whose prediction and target are finite, as CORR's are, and `R` keeps only the `count` rows with
 * the lowest and the `count` with the highest prediction (`topBottomRows`). Every row when 2·count
 * reaches their number (then it is CORR); 0 under 2 rows or with a constant side.
 *
 * @example topBottomCorr(Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5), Float64Array.of(0, 1, 0, 0, 1), ["a", "b", "c", "d", "e"], 1) // 1
 */
export function topBottomCorr(prediction: Float64Array, target: Float64Array, ids: readonly string[], count: number): number {
  if (target.length !== prediction.length) throw new Error(`target has ${target.length} values for ${prediction.length} predictions`);
  const rows = [...prediction.keys()].filter((i) => Number.isFinite(prediction[i]) && Number.isFinite(target[i]));
  const n = rows.length;
  const p = Float64Array.from(rows, (i) => prediction[i]);
  const gp = new Float64Array(n);
  const tc = new Float64Array(n);
  const poweredTc = new Float64Array(n);
  gaussianise(p, n, gp);
  poweredTarget(Float64Array.from(rows, (i) => target[i]), n, tc, poweredTc);
  const kept = topBottomRows(p, rows.map((i) => ids[i]), count);
  const keptGp = Float64Array.from(kept, (k) => gp[k]);
  return corrOfGaussian(keptGp, kept.length, Float64Array.from(kept, (k) => poweredTc[k]), keptGp);
}

/**
 * The rows a top/bottom score keeps: the `count` rows with the lowest and the `count` with the
 * highest finite prediction, ties broken by id in byte order, returned in row order; every finite
 * row when 2·count reaches their number.
 *
 * @example topBottomRows(Float64Array.of(0.5, 0.1, 0.9, 0.3, 0.7), ["a", "b", "c", "d", "e"], 1) // [1, 2]
 */
export function topBottomRows(prediction: Float64Array, ids: readonly string[], count: number): number[] {
  if (ids.length !== prediction.length) throw new Error(`prediction has ${prediction.length} values for ${ids.length} ids`);
  const finite = [...prediction.keys()].filter((i) => Number.isFinite(prediction[i]));
  if (2 * count >= finite.length) return finite;
  finite.sort((a, b) => prediction[a] - prediction[b] || (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  return [...finite.slice(0, count), ...finite.slice(finite.length - count)].sort((a, b) => a - b);
}

/**
 * How many rows each end of a top/bottom score takes in an exped of `rows` rows: `setting` ≥ 1 is
 * that many rows; a fraction in (0, 0.5] is `max(1, floor(fraction · rows))` (0.2 of a 92-row
 * exped is 18 top and 18 bottom, numerblox's TB200 on a ~5000-row era is 0.04).
 *
 * @example topBottomCount(0.2, 92) // 18
 */
export function topBottomCount(setting: number, rows: number): number {
  if (!(setting > 0) || (setting > 0.5 && (setting < 1 || !Number.isInteger(setting)))) {
    throw new Error(`top/bottom ${setting} is neither a fraction in (0, 0.5] nor a whole number of rows ≥ 1`);
  }
  return setting >= 1 ? setting : Math.max(1, Math.floor(setting * rows));
}
