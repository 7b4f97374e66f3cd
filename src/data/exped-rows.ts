import type { Rng } from "../domain/rng.js";
import { argsort, uniformRanks } from "./ranks.js";
import { MISSING } from "../domain/frame.js";
import { FEATURE_BINS } from "./schema.js";

/**
 * The target's levels and the share of each exped's rows at each level, lowest latent first.
 */
export const TARGET_LEVELS = [0, 0.25, 0.5, 0.75, 1.0] as const;
export const TARGET_SHARES = [0.05, 0.2, 0.5, 0.2, 0.05] as const;

/**
 * Draws one exped's rows into rows [at, at + n) of `features` (one column per feature) and
 * `target`: raw features z ~ N(0, 1), published as their quintile bin within the exped with a
 * `missingShare` of cells set to MISSING; the latent Σ w_j·z_j + N(0, 1), published as its level
 * by rank within the exped. The missing mask is drawn last, so changing the share moves nothing else.
 */
export function drawExpedRows(
  rng: Rng,
  weights: Float64Array,
  missingShare: number,
  features: Float64Array[],
  target: Float64Array,
  at: number,
  n: number,
): void {
  const z = new Float64Array(n);
  const latent = new Float64Array(n);
  features.forEach((col, j) => {
    for (let i = 0; i < n; i++) {
      z[i] = rng.normal();
      latent[i] += weights[j] * z[i];
    }
    const order = argsort(z);
    for (let k = 0; k < n; k++) col[at + order[k]] = Math.floor((k * FEATURE_BINS) / n);
  });
  for (let i = 0; i < n; i++) latent[i] += rng.normal();
  const u = uniformRanks(latent);
  for (let i = 0; i < n; i++) target[at + i] = targetLevel(u[i]);
  for (const col of features) {
    for (let i = 0; i < n; i++) if (rng.next() < missingShare) col[at + i] = MISSING;
  }
}

/** The level of a row whose latent sits at uniform rank `u` in its exped. */
function targetLevel(u: number): number {
  let cumulative = 0;
  for (let k = 0; k < TARGET_LEVELS.length - 1; k++) {
    cumulative += TARGET_SHARES[k];
    if (u < cumulative) return TARGET_LEVELS[k];
  }
  return TARGET_LEVELS[TARGET_LEVELS.length - 1];
}
