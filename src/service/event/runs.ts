import { catalogue, fill, refuse } from "../../domain/errors.js";
import { meanTerms, roundScore } from "../../scoring/blend.js";
import type { PreparedExped } from "../../scoring/exped.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { scoringSettings } from "../kernel/setup.js";
import { decodePredictions } from "../rounds/submission-codec.js";
import { laneTruth } from "./run-truth.js";
import { runView, type RunView } from "./run-view.js";
import { dropPrescore, takePrescore } from "./run-prescoring.js";
import { scoreRun, type RunScores } from "../../scoring/run-scores.js";
import { deleteUpload, runById, setRunStatus, type RunRow, failRun, finaliseRun } from "../../store/uploads.js";
import { runPredictions } from "../../store/upload-predictions.js";
import { dueTwoStage } from "../../store/two-stage.js";

/** A run's next transition, due at `t`. */
export interface RunStep {
  t: number;
  kind: "run_scoring" | "run_finish";
  upload_id: string;
}

const RUN_STAGES = { table: "uploads", id: "upload_id", from: "accepted", next: "scoring", firstAt: "scoring_at", endAt: "finishes_at" } as const;

export function dueRunSteps(ctx: ServiceContext, now: number): RunStep[] {
  return dueTwoStage(ctx.db, RUN_STAGES, now).map(({ t, stage, id }) => ({ t, kind: stage === "next" ? "run_scoring" : "run_finish", upload_id: id }));
}

/**
 * Applies a run's step. A finish uses the scores its file got on the upload check pool
 * (src/service/event/run-prescoring.ts), so the serial path only writes them; a run that was not
 * scored there (or against other expeds) is scored here.
 */
export function applyRunStep(ctx: ServiceContext, step: RunStep): void {
  const row = runById(ctx.db, step.upload_id);
  if (!row) return;
  if (step.kind === "run_scoring") {
    if (row.status !== "accepted") return;
    inTransaction(ctx.db, () => {
      setRunStatus(ctx.db, row.upload_id, "scoring");
      appendEvent(ctx.db, step.t, "run.scoring", { upload_id: row.upload_id });
    });
    return;
  }
  if (row.status !== "accepted" && row.status !== "scoring") return dropPrescore(ctx, row.upload_id);
  const truths = laneTruth(ctx, row.lane, row.round_window);
  const scores = takePrescore(ctx, row.upload_id, truths) ?? scoreStored(ctx, row.upload_id, truths);
  inTransaction(ctx.db, () => finish(ctx, row, step.t, scores));
}

function scoreStored(ctx: ServiceContext, uploadId: string, truths: readonly PreparedExped[]): RunScores {
  const stored = runPredictions(ctx.db, uploadId);
  return scoreRun(JSON.parse(stored.ids) as string[], decodePredictions(stored.predictions), truths);
}

/**
 * Records a run's scores. No overlap at all fails it, with the spec's text (the practice board's
 * variant counts the ids); scores are the mean over the expeds it touched.
 */
function finish(ctx: ServiceContext, row: RunRow, t: number, { matched, terms }: RunScores): void {
  if (matched === 0) {
    // The refusal's code and text, without the error (a stack taken for nothing on the serial path).
    const code = row.lane === "practice" ? "no_id_overlap_practice" : "no_id_overlap";
    const message = fill(catalogue[code].text, { n: row.n_rows });
    failRun(ctx.db, row.upload_id, code, message);
    appendEvent(ctx.db, t, "run.failed", { upload_id: row.upload_id, code, message });
    return;
  }
  const mean = meanTerms(terms);
  const score = mean.aimc === null ? null : roundScore({ corr: mean.corr, aimc: mean.aimc, ncorr: mean.ncorr }, scoringSettings(ctx));
  finaliseRun(ctx.db, row.upload_id, { n_matched: matched, corr: mean.corr, aimc: mean.aimc, ncorr: mean.ncorr, score });
  appendEvent(ctx.db, t, "run.finalised", { upload_id: row.upload_id, n_matched: matched, n_expeds: terms.length, ...mean, score });
}

/** The caller's run; another agent's run answers as not found. */
export function getRun(ctx: ServiceContext, p: Principal, uploadId: string): RunView {
  const row = runById(ctx.db, uploadId);
  if (!row || row.agent_id !== p.agent_id) throw refuse("upload_not_found", { id: uploadId });
  return runView(ctx, row);
}

/**
 * DELETE of a run: one still queued or scoring is cancelled (its pool place comes back); a failed
 * or cancelled run is removed, so the same predictions can be filed again; a finalised run stays
 * (409 already finalized: poll its status instead).
 */
export function deleteRun(ctx: ServiceContext, p: Principal, uploadId: string): { upload_id: string; status: "cancelled" | "removed" } {
  return inTransaction(ctx.db, () => {
    const row = runById(ctx.db, uploadId);
    if (!row || row.agent_id !== p.agent_id) throw refuse("upload_not_found", { id: uploadId });
    const t = ctx.clock.now();
    if (row.status === "finalised") throw refuse("upload_already_finalized", { id: uploadId });
    if (row.status === "accepted" || row.status === "scoring") {
      setRunStatus(ctx.db, uploadId, "cancelled");
      dropPrescore(ctx, uploadId);
      appendEvent(ctx.db, t, "run.cancelled", { upload_id: uploadId });
      return { upload_id: uploadId, status: "cancelled" as const };
    }
    deleteUpload(ctx.db, uploadId);
    appendEvent(ctx.db, t, "run.removed", { upload_id: uploadId });
    return { upload_id: uploadId, status: "removed" as const };
  });
}
