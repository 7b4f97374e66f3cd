import type { GpuTier } from "./settings.js";

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

/**
 * The simulated runtime of a job's work, derived from the workload alone: setup, then rows ×
 * features for each of the CV fits and the final fit, at the tier's speed. Uncapped: a run
 * longer than its maximum times out.
 */
export function workSeconds(rows: number, features: number, gpu: GpuTier): number {
  return SETUP_SECONDS + Math.ceil((rows * features * (CV_FOLDS + 1)) / TIER_CELLS_PER_SECOND[gpu]);
}

/** Cents for `seconds` at `rateMicroPerHour` (micro-USDC per hour), rounded up to the cent. */
export function costCents(seconds: number, rateMicroPerHour: number): number {
  return Math.ceil((seconds * rateMicroPerHour) / (3600 * 10_000));
}
