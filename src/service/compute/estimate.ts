import type { ModelParams, TrainedModel } from "./model-kinds.js";
import type { GpuTier } from "../kernel/settings/compute.js";

/** The hard runtime ceiling whatever max_hours says (the real service's is about 45 minutes). */
export const HARD_CEILING_SECONDS = 45 * 60;
/** Simulated seconds from launch to running. */
export const QUEUE_SECONDS = 1;
/** Simulated seconds a job spends starting its machine and loading the data. */
export const SETUP_SECONDS = 60;
/** Cross-validation folds; the job fits one ridge per fold and one on everything. */
export const CV_FOLDS = 3;
/** Feature cells per simulated second each tier works through. */
export const TIER_CELLS_PER_SECOND: Record<GpuTier, number> = { CPU: 2_000, T4: 10_000, A10G: 20_000, A100: 40_000 };

/** The longest a job may run: max_hours, capped by the hard ceiling. */
export function maxRuntimeSeconds(maxHours: number): number {
  return Math.min(Math.floor(maxHours * 3600), HARD_CEILING_SECONDS);
}

/** What a job's simulated runtime depends on: its kind, its resolved params and its workload. */
export interface JobWorkload {
  model: TrainedModel;
  params: ModelParams;
  /** Train rows the job uses (train_filter's, or the whole split). */
  rows: number;
  features: number;
}

/**
 * A kind's work per feature cell, relative to a ridge's (1), from its resolved params:
 * random_forest grows n_estimators trees of max_depth levels, each on max_features of the
 * features; xgboost grows n_estimators trees of max_depth levels, each on subsample of the rows
 * and colsample_bytree of the features; lightgbm likewise, its leaf-wise trees of num_leaves leaves
 * as deep as log2(num_leaves) levels; mlp runs max_iter epochs over its weights (features ×
 * the first layer, layer × layer, the last layer × 1), counted per feature; custom's build_model
 * is opaque to the service, so it has one flat factor. The divisors put the default params near
 * their measured cost against a ridge (README "Wall time"): random_forest 7.5, xgboost 3.2,
 * lightgbm 4.9 (its default fit took 1.5 times xgboost's CPU time), mlp about 6.7 on 24 features.
 */
export function kindFactor(model: TrainedModel, params: ModelParams, features: number): number {
  const n = (name: string) => params[name] as number;
  switch (model) {
    case "ridge":
      return 1;
    case "random_forest":
      return (n("n_estimators") * n("max_depth") * n("max_features")) / 40;
    case "xgboost":
      return (n("n_estimators") * n("max_depth") * n("subsample") * n("colsample_bytree")) / 160;
    case "lightgbm":
      return (n("n_estimators") * Math.log2(n("num_leaves")) * n("subsample") * n("colsample_bytree")) / 130;
    case "mlp": {
      const layers = [features, ...(params.hidden_layer_sizes as number[]), 1];
      const weights = layers.slice(1).reduce((sum, width, i) => sum + layers[i] * width, 0);
      return (n("max_iter") * weights) / features / 500;
    }
    case "custom":
      return CUSTOM_FACTOR;
  }
}

/** custom's factor: its estimator is whatever build_model returns, so one figure for all. */
export const CUSTOM_FACTOR = 4;

/**
 * The simulated runtime of a job's work, derived from the workload alone: setup, then rows ×
 * features × the kind's factor (kindFactor) for each of the CV fits and the final fit, at the
 * tier's speed. A ridge's factor is 1. Uncapped: a run longer than its maximum times out.
 */
export function workSeconds(w: JobWorkload, gpu: GpuTier): number {
  return SETUP_SECONDS + Math.ceil((w.rows * w.features * kindFactor(w.model, w.params, w.features) * (CV_FOLDS + 1)) / TIER_CELLS_PER_SECOND[gpu]);
}

/** Cents for `seconds` at `rateMicroPerHour` (micro-USDC per hour), rounded up to the cent. */
export function costCents(seconds: number, rateMicroPerHour: number): number {
  return Math.ceil((seconds * rateMicroPerHour) / (3600 * 10_000));
}
