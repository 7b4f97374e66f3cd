import { rankUniform } from "../../src/scoring/rank.js";

/** Any scores as predictions in (0, 1): their uniform ranks `(rank - 0.5)/n`. */
export function toUnitInterval(scores: Float64Array): Float64Array {
  const out = new Float64Array(scores.length);
  rankUniform(scores, scores.length, out, new Float64Array(scores.length));
  return out;
}
