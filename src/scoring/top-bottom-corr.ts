import { corrOfGaussian, poweredTarget } from "./corr.js";
import { gaussianise } from "./gaussian.js";
import { topBottomRows } from "./top-bottom-rows.js";
import { finiteRows, valuesAt } from "./vector.js";

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
  const rows = finiteRows(prediction, target);
  const n = rows.length;
  const p = valuesAt(prediction, rows);
  const gp = new Float64Array(n);
  const tc = new Float64Array(n);
  const poweredTc = new Float64Array(n);
  gaussianise(p, n, gp);
  poweredTarget(valuesAt(target, rows), n, tc, poweredTc);
  const kept = topBottomRows(p, rows.map((i) => ids[i]), count);
  const keptGp = valuesAt(gp, kept);
  return corrOfGaussian(keptGp, kept.length, valuesAt(poweredTc, kept), keptGp);
}
