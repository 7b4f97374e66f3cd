import { gaussianise } from "./gaussian.js";
import { pearson } from "./pearson.js";
import { finiteRows, valuesAt } from "./vector.js";

/**
 * How much of a prediction is the designated benchmark, on one exped: `pearson(g(p), g(b))` over
 * the rows where both are finite, `g` the gaussianised rank (each side ranked over those rows),
 * the correlation AIMC orthogonalises away. 1 for the benchmark itself or any increasing function
 * of it; 0 under 2 rows or with either side constant.
 *
 * @example designatedCorr(Float64Array.of(1, 2, 3), Float64Array.of(10, 30, 20)) // 0.5
 */
export function designatedCorr(prediction: Float64Array, benchmark: Float64Array): number {
  if (benchmark.length !== prediction.length) throw new Error(`benchmark has ${benchmark.length} values for ${prediction.length} predictions`);
  const rows = finiteRows(prediction, benchmark);
  const n = rows.length;
  const gp = valuesAt(prediction, rows);
  const gb = valuesAt(benchmark, rows);
  gaussianise(gp, n, gp);
  gaussianise(gb, n, gb);
  return pearson(gp, gb, n);
}
