/** What a predict run answered, read back: one value per returned id, in the callable's row order. */
export interface PredictAnswer {
  ids: string[];
  values: Float64Array;
}

export type CheckedPredictions = { ok: true; values: Float64Array } | { ok: false; error: string };

/**
 * Checks a predict answer against the ids it was asked about: every id exactly once, no other id,
 * every value a finite number in [0, 1]. On success the values come back in `expected`'s order.
 * The error names the first problem found, in that order, with an example id.
 */
export function checkPredictOutput(expected: readonly string[], answer: PredictAnswer): CheckedPredictions {
  const position = new Map(expected.map((id, i) => [id, i]));
  const seen = new Set<string>();
  const strangers: string[] = [];
  for (const id of answer.ids) {
    if (seen.has(id)) return { ok: false, error: `predict returned id '${id}' more than once` };
    seen.add(id);
    if (!position.has(id)) strangers.push(id);
  }
  if (strangers.length > 0) {
    return { ok: false, error: `predict returned ${strangers.length} ids not in the live features (e.g. '${strangers[0]}')` };
  }
  const missing = expected.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    return { ok: false, error: `predict returned no prediction for ${missing.length} of ${expected.length} ids (e.g. '${missing[0]}')` };
  }
  const values = new Float64Array(expected.length);
  for (let i = 0; i < answer.ids.length; i++) {
    const v = answer.values[i];
    if (!Number.isFinite(v)) return { ok: false, error: `predict returned a non-finite value (${v}) for id '${answer.ids[i]}'` };
    if (v < 0 || v > 1) return { ok: false, error: `predict returned ${v} for id '${answer.ids[i]}'; predictions must be in [0, 1]` };
    values[position.get(answer.ids[i]) as number] = v;
  }
  return { ok: true, values };
}
