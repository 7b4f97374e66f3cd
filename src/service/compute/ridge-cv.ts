import type { Frame } from "../../domain/frame.js";
import { fitLinear, predictLinear, type LinearModel } from "../../data/least-squares.js";
import { cvFolds, presetColumns } from "./cv-plan.js";
import { scoreCv, type CvMetrics, type CvTruth, type FoldResult } from "./cv-score.js";

export interface RidgeFit {
  cv: CvMetrics;
  folds: FoldResult[];
  /** The model refitted on every train row. */
  model: LinearModel;
}

export interface RidgeInput extends CvTruth {
  features: string[];
  /** The ridge penalty per training row. */
  alpha: number;
}

/**
 * A ridge in TypeScript, cross-validated on the exped-purged folds (cv-plan.ts) and scored by the
 * scoring engine (cv-score.ts), then refitted on every train row. Throws when a fit is not finite.
 */
export function fitRidgeCv(input: RidgeInput): RidgeFit {
  const folds = cvFolds(input.train);
  const models = new Map(folds.map((f) => [f.fold, fit(input.train, input, f.fit_rows)]));
  const scored = scoreCv(input, folds, (f, rows) => predictLinear(models.get(f.fold) as LinearModel, presetColumns(input.train, input.features, rows)));
  return { ...scored, model: fit(input.train, input, input.train.ids.map((_, i) => i)) };
}

function fit(train: Frame, input: RidgeInput, rows: number[]): LinearModel {
  const y = train.columns[input.target];
  const labelled = rows.filter((r) => Number.isFinite(y[r]));
  const model = fitLinear(presetColumns(train, input.features, labelled), Float64Array.from(labelled, (r) => y[r]), input.alpha * labelled.length);
  if (!Number.isFinite(model.intercept) || model.coefficients.some((c) => !Number.isFinite(c))) {
    throw new Error(`the ridge fit on ${labelled.length} rows is not finite`);
  }
  return model;
}
