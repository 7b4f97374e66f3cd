import { rankUniform } from "../scoring/rank.js";

/**
 * Orderings within one exped, on typed arrays without per-row allocation: the generator bins
 * features and levels the target by rank, and the benchmark is published as uniform ranks.
 */

/** Indices 0..n-1 ordered by `values` ascending, ties by index (so the order is deterministic). */
export function argsort(values: Float64Array): Uint32Array {
  const order = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => values[a] - values[b] || a - b);
}

/** `(rank - 0.5) / n` with ties given their average rank (the scoring's own u(x)): strictly inside (0, 1). */
export function uniformRanks(values: Float64Array): Float64Array {
  const out = new Float64Array(values.length);
  rankUniform(values, values.length, out);
  return out;
}
