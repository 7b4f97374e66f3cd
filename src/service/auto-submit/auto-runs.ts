import { selectColumns } from "../../domain/frame.js";
import { runPredict, type PredictOutcome } from "../../participant/run-predict.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "../kernel/context.js";
import { benchmarkWithheld, liveEmptied } from "../kernel/faults.js";
import { roundByExped, type RoundRow } from "../../store/rounds.js";
import { roundUniverse } from "../../store/round-universe.js";
import { insertSubmission, storedPredictions } from "../rounds/submissions.js";
import { activeLaneModels } from "../models/lane.js";
import { aheadOrNow, type AheadWork } from "../kernel/runs-ahead.js";
import { modelIsolation } from "../kernel/model-isolation.js";
import { modelFileBytes, type ModelUploadRow } from "../../store/model-uploads.js";
import { checkPredictOutput } from "./predict-output.js";
import { autoSubmitSettings } from "../kernel/settings/auto-submit.js";
import { insertLaneRun, markLaneRound, roundsAwaitingLane } from "../../store/lane-runs.js";
import { entryIdOf } from "../../store/submissions.js";

/** The lane's run for a round, due `auto_submit_delay_seconds` after it opens. */
export interface AutoRunStep {
  t: number;
  lane: "auto_run";
  exped: string;
}

/**
 * Every round whose lane time has come and that the lane has not run yet (tournaments only). Only a
 * round not yet closed can be due (the lane runs nothing on a closed round, and ran on each before
 * it closed), so the index on (status, open_at) finds them without a pass over past rounds.
 */
export function dueAutoRunSteps(ctx: ServiceContext, now: number): AutoRunStep[] {
  if (ctx.world.deployment.kind !== "tournament") return [];
  const delay = autoSubmitSettings(ctx).auto_submit_delay_seconds * 1000;
  return roundsAwaitingLane(ctx.db, now - delay).map((r) => ({ t: r.open_at + delay, lane: "auto_run", exped: r.exped }));
}

type Outcome = { outcome: "submitted" | "failed" | "skipped"; detail: string | null; submission_id: string | null };

/**
 * Runs the lane for one round, at its scheduled instant: for each model whose lane is active
 * (creation order), its validated file's predict on the round's live features (and live benchmark,
 * as served), filed as the model's submission with source `auto`. A model that already has a
 * submission for the round is skipped (a manual submission wins); a failed run files nothing and
 * logs why. Nothing runs when the window has closed, or when the live split is under the
 * `empty_live` fault (logged). Each model's outcome is kept for `get_upload_status`.
 */
export async function applyAutoRun(ctx: ServiceContext, step: AutoRunStep): Promise<void> {
  inTransaction(ctx.db, () => markLaneRound(ctx.db, step.exped, step.t));
  const round = roundByExped(ctx.db, step.exped);
  if (!round || round.status !== "open") return;
  const models = activeLaneModels(ctx);
  if (models.length === 0) return;
  if (liveEmptied(ctx, round.idx)) {
    const detail = "the round's live split is empty (empty_live fault): nothing to run the model on";
    inTransaction(ctx.db, () => {
      for (const m of models) keep(ctx, step, m.model_id, m.upload, { outcome: "skipped", detail, submission_id: null });
      appendEvent(ctx.db, step.t, "auto_run.skipped", { exped: step.exped, model_ids: models.map((m) => m.model_id), reason: detail });
    });
    return;
  }
  const runs = new Map<string, Promise<PredictOutcome>>();
  for (const { model_id, upload } of models) {
    if (entryIdOf(ctx.db, model_id, step.exped) !== undefined) {
      const detail = "a manual submission is already filed for this round";
      inTransaction(ctx.db, () => {
        keep(ctx, step, model_id, upload, { outcome: "skipped", detail, submission_id: null });
        appendEvent(ctx.db, step.t, "auto_run.skipped", { exped: step.exped, model_ids: [model_id], reason: detail });
      });
      continue;
    }
    // Models sharing a file share its run: the same callable on the same input.
    if (!runs.has(upload.sha256)) {
      const { key, run } = roundRun(ctx, round, upload, step.t);
      runs.set(upload.sha256, aheadOrNow(ctx, key, run));
    }
    const outcome = await (runs.get(upload.sha256) as Promise<PredictOutcome>);
    const checked = outcome.ok ? checkPredictOutput(roundUniverse(ctx.db, step.exped).ids, outcome) : outcome;
    inTransaction(ctx.db, () => {
      if (!checked.ok) {
        keep(ctx, step, model_id, upload, { outcome: "failed", detail: checked.error, submission_id: null });
        appendEvent(ctx.db, step.t, "auto_run.failed", { exped: step.exped, model_id, upload_id: upload.upload_id, reason: checked.error });
        return;
      }
      const submission_id = fileAutoEntry(ctx, step, model_id, upload, checked.values);
      keep(ctx, step, model_id, upload, { outcome: "submitted", detail: null, submission_id });
    });
  }
}

/**
 * A model file's predict on a round's live features, named by every input it reads: the round, the
 * file, and whether the benchmark is withheld (a fault the organiser may toggle before the run).
 * It may start once the round has opened and the file has validated (src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts).
 */
export function roundRun(ctx: ServiceContext, round: RoundRow, upload: ModelUploadRow, t: number): AheadWork<PredictOutcome> {
  const withheld = benchmarkWithheld(ctx, round.idx);
  return {
    key: `auto_run:${round.exped}:${upload.sha256}:${withheld ? "withheld" : "served"}`,
    t,
    run: async () => {
      const live = ctx.world.dataset.rounds[round.idx - 1];
      return runPredict({
        isolation: await modelIsolation(ctx),
        pkl: modelFileBytes(ctx.db, upload.sha256),
        features: live.frame,
        benchmark: withheld ? selectColumns(live.benchmark, []) : live.benchmark,
        timeout_seconds: autoSubmitSettings(ctx).predict_timeout_seconds,
      });
    },
  };
}

/** Files the lane's entry: revision 1, source `auto`, ids in the round's order; a manual submit v2 later replaces it. */
function fileAutoEntry(ctx: ServiceContext, step: AutoRunStep, modelId: string, upload: ModelUploadRow, values: Float64Array): string {
  const { blob, sha256 } = storedPredictions(values);
  const id = insertSubmission(ctx, { model_id: modelId, exped: step.exped, t: step.t, blob, source: "auto" });
  appendEvent(ctx.db, step.t, "submission.auto", {
    submission_id: id,
    model_id: modelId,
    exped: step.exped,
    upload_id: upload.upload_id,
    revision: 1,
    n: values.length,
    sha256,
  });
  return id;
}

function keep(ctx: ServiceContext, step: AutoRunStep, modelId: string, upload: ModelUploadRow, o: Outcome): void {
  insertLaneRun(ctx.db, modelId, upload.upload_id, { exped: step.exped, ...o, ran_at: step.t });
}
