import { corrOfGaussian, poweredTarget } from "./corr.js";
import { gaussianise } from "./gaussian.js";
import { topBottomRows } from "./top-bottom-rows.js";

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
