/**
 * Offline scoring helpers for agents, on the same kernels the service settles with
 * (`src/scoring`, definitions in SCORING.md).
 */
import { alignValues, indexIds } from "../scoring/align.js";
import { prepareExped, scoreAgainst } from "../scoring/exped.js";

/**
 * A series keyed by row id: either a plain record `{ [id]: value }` or parallel arrays
 * `{ ids, values }` (values as Float64Array or number[]). NaN marks a missing value.
 */
export type Series = Record<string, number> | { ids: string[]; values: Float64Array | number[] };

/**
 * AIMC of `predictions` against the benchmark series `ai_model` on the realised `target` (the "20"
 * is the 20-day target horizon): the covariance with the target of the prediction orthogonalised
 * against the benchmark, over the ids present and finite in all three. Returns null when the
 * benchmark and the target share no finite row. A prediction equal to `ai_model`, or any strictly
 * increasing transform of it, scores exactly 0.
 *
 * @example aimc20({ a: 0.2, b: 0.9, c: 0.4 }, { a: 0.1, b: 0.5, c: 0.7 }, { a: 0, b: 1, c: 0.5 })
 */
export function aimc20(predictions: Series, ai_model: Series, target: Series): number | null {
  const t = toColumns(target);
  const b = toColumns(ai_model);
  const benchmark = new Float64Array(t.ids.length);
  alignValues(indexIds(t.ids), t.ids.length, b.ids, b.values, benchmark);
  const p = toColumns(predictions);
  return scoreAgainst(prepareExped({ ids: t.ids, target: t.values, benchmark, core: [] }), p.ids, p.values).aimc;
}

function toColumns(series: Series): { ids: string[]; values: Float64Array } {
  if (Array.isArray(series.ids) && series.values !== undefined && typeof series.values === "object") {
    const { ids, values } = series as { ids: string[]; values: Float64Array | number[] };
    if (ids.length !== values.length) throw new Error(`series has ${ids.length} ids and ${values.length} values`);
    return { ids, values: values instanceof Float64Array ? values : Float64Array.from(values) };
  }
  const record = series as Record<string, number>;
  const ids = Object.keys(record);
  return { ids, values: Float64Array.from(ids, (id) => record[id]) };
}
