import type { NumericColumn } from "../domain/frame.js";
import { absPearson, type CoMoments, exposuresOf, mergeMoments } from "./exposure.js";

/** Per feature, in the features' order: its exposure on each exped and pooled over every row of the walk. */
export interface FeatureExposures {
  /** perExped[e][j] = |pearson(p, feature j)| over exped e's rows where both are present. */
  perExped: number[][];
  /** pooled[j] = |pearson(p, feature j)| over the rows of all expeds together. */
  pooled: number[];
}

/**
 * Feature exposure `|pearson(p, f)|` of a prediction to each feature, over the rows where p is
 * finite and f is present (finite, not the MISSING sentinel): per exped, and pooled by merging the
 * expeds' co-moments in exped order (`mergeMoments`). 0 under 2 rows or with either side constant.
 *
 * @example featureExposures([{ prediction: Float64Array.of(1, 2, 3), features: [Float64Array.of(3, 2, 1)] }]) // { perExped: [[1]], pooled: [1] }
 */
export function featureExposures(expeds: { prediction: Float64Array; features: NumericColumn[] }[]): FeatureExposures {
  const width = expeds[0]?.features.length ?? 0;
  const merged: CoMoments[] = [];
  const perExped = expeds.map(({ prediction, features }) => {
    if (features.length !== width) throw new Error(`an exped has ${features.length} features for ${width}`);
    return exposuresOf(prediction, features).map((m, j) => {
      merged[j] = merged[j] ? mergeMoments(merged[j], m) : m;
      return absPearson(m);
    });
  });
  return { perExped, pooled: merged.map(absPearson) };
}
