import { iso } from "../../domain/clock.js";
import { refuse } from "../../domain/errors.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { resolveModel } from "../models/models.js";
import { roundByExped } from "../../store/rounds.js";
import { roundUniverse, type RoundUniverse } from "../../store/round-universe.js";
import { insertSubmission, storedPredictions } from "../rounds/submissions.js";
import { entryOf, reviseEntry } from "../../store/submissions.js";

/** One instrument's entry: `prediction` for the graded target, or a per-target map. */
export interface PredictionEntry {
  instrument_id: string;
  prediction?: number;
  targets?: Record<string, number>;
}

export interface SubmitInput {
  model_id: string;
  exped: string;
  predictions: PredictionEntry[];
}

export interface SubmitResult {
  submission_id: string;
  model_id: string;
  model: string;
  exped: string;
  n_predictions: number;
  replaced: boolean;
  revision: number;
  submitted_at: string;
}

/**
 * Tournament submit (v2): one entry per instrument of the open round, each a finite number in
 * [0, 1]. A second submit inside the window replaces the first (same submission id); once the
 * window has closed the recorded entry is final. An entry the auto-submit lane filed counts as
 * the first: a manual submit replaces it (`replaced: true`, revision 2).
 */
export function submitV2(ctx: ServiceContext, p: Principal, input: SubmitInput): SubmitResult {
  requireScope(p, ["tournament"], "futures submit");
  const model = resolveModel(ctx, p, input.model_id);
  const round = roundByExped(ctx.db, input.exped);
  if (!round || round.status === "scheduled") throw refuse("round_not_found");
  const existing = entryOf(ctx.db, model.id, round.exped);
  if (round.status !== "open") {
    if (existing) throw refuse("submission_final");
    throw refuse("submission_window_closed", { exped: round.exped, close_at: iso(round.close_at) });
  }
  const values = predictionValues(input.predictions, ctx.world.dataset.target);
  const universe = roundUniverse(ctx.db, round.exped);
  const aligned = alignToUniverse(input.predictions, values, universe);

  return inTransaction(ctx.db, () => {
    const t = ctx.clock.now();
    const { blob, sha256 } = storedPredictions(aligned);
    let id: string;
    let revision: number;
    if (existing) {
      id = existing.id;
      revision = existing.revision + 1;
      reviseEntry(ctx.db, id, t, revision, blob);
    } else {
      id = insertSubmission(ctx, { model_id: model.id, exped: round.exped, t, blob, source: "manual" });
      revision = 1;
    }
    appendEvent(ctx.db, t, "submission.accepted", {
      submission_id: id,
      model_id: model.id,
      exped: round.exped,
      revision,
      n: aligned.length,
      sha256,
    });
    return {
      submission_id: id,
      model_id: model.id,
      model: model.name,
      exped: round.exped,
      n_predictions: aligned.length,
      replaced: existing !== undefined,
      revision,
      submitted_at: iso(t),
    };
  });
}

/** Each entry's value for the graded target; refuses a missing, non-finite or out-of-range value. */
function predictionValues(entries: PredictionEntry[], target: string): Float64Array {
  const values = new Float64Array(entries.length);
  entries.forEach((entry, i) => {
    let value: number | undefined = entry.prediction;
    let field = "prediction";
    if (entry.targets !== undefined) {
      for (const name of Object.keys(entry.targets)) {
        if (name !== target) {
          throw refuse(
            "validation_error",
            { message: `predictions[${i}].targets: unknown target '${name}' (this round scores '${target}')` },
            { extra: { loc: ["body", "predictions", i, "targets", name] } },
          );
        }
      }
      value = entry.targets[target];
      field = `targets.${target}`;
    }
    if (value === undefined || value === null) {
      throw refuse(
        "validation_error",
        { message: `predictions[${i}]: needs a prediction (or targets.${target})` },
        { extra: { loc: ["body", "predictions", i, "prediction"] } },
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw refuse("prediction_not_finite", {}, { extra: { loc: entryLoc(i, field), instrument_id: entry.instrument_id } });
    }
    if (value < 0 || value > 1) {
      throw refuse("prediction_out_of_range", { name: target, score: value }, { extra: { loc: entryLoc(i, field), instrument_id: entry.instrument_id } });
    }
    values[i] = value;
  });
  return values;
}

/** Where a refused value sits in the request body (built only for a refusal). */
function entryLoc(i: number, field: string): (string | number)[] {
  return ["body", "predictions", i, ...field.split(".")];
}

/**
 * The values in the round's instrument order; refuses duplicates, strangers and gaps, in that order.
 * Entries listed in exactly the published order (as the instruments call gives them) are already
 * aligned: the published ids are distinct, so they hold no duplicate, stranger or gap. Otherwise one
 * pass: a known id is marked by its position, only strangers are kept by name.
 */
function alignToUniverse(entries: PredictionEntry[], values: Float64Array, { ids, position }: RoundUniverse): Float64Array {
  if (inPublishedOrder(entries, ids)) return values;
  const aligned = new Float64Array(ids.length);
  const filled = new Uint8Array(ids.length);
  const strangers = new Set<string>();
  let duplicates = 0;
  let known = 0;
  entries.forEach((e, i) => {
    const at = position.get(e.instrument_id);
    if (at === undefined) {
      if (strangers.has(e.instrument_id)) duplicates++;
      else strangers.add(e.instrument_id);
    } else if (filled[at] === 1) duplicates++;
    else {
      filled[at] = 1;
      aligned[at] = values[i];
      known++;
    }
  });
  if (duplicates > 0) throw refuse("duplicate_instruments", { n: duplicates });
  if (strangers.size > 0) throw refuse("unknown_instruments", { n: strangers.size });
  const missing = ids.length - known;
  if (missing > 0) throw refuse("missing_instruments", { n: missing });
  return aligned;
}

function inPublishedOrder(entries: PredictionEntry[], ids: readonly string[]): boolean {
  if (entries.length !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) if (entries[i].instrument_id !== ids[i]) return false;
  return true;
}
