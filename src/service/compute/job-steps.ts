import { createHash } from "node:crypto";
import { ridgePickle, type RidgePickle } from "../../data/ridge-pickle.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "../kernel/context.js";
import { costCents } from "./estimate.js";
import { endJob, jobById, type JobRow, markJobRunning } from "../../store/jobs.js";
import { requestOf } from "./train-request.js";
import { fitRidgeCv, type RidgeFit } from "./ridge-cv.js";
import { computeSettings, DEFAULT_WALL_SECONDS, rateMicroPerHour } from "../kernel/settings/compute.js";
import { FILL_VALUE } from "./cv-plan.js";
import type { CvMetrics, FoldResult } from "./cv-score.js";
import { fitInSandbox, type PythonFit } from "./python-fit.js";
import { aheadOrNow, type AheadWork } from "../kernel/runs-ahead.js";
import { jobTrainFrame } from "./train-filter.js";
import { trainingIsolation } from "./training-python.js";
import type { Outcome } from "../../participant/python-worker.js";
import { dueTwoStage } from "../../store/two-stage.js";
import { keepModelFile } from "../../store/model-uploads.js";

/** A job's next transition, due at `t`. */
export interface JobStep {
  t: number;
  kind: "job_running" | "job_end";
  job_id: string;
}

const JOB_STAGES = { table: "compute_jobs", id: "job_id", from: "queued", next: "running", firstAt: "running_at", endAt: "ends_at" } as const;

export function dueJobSteps(ctx: ServiceContext, now: number): JobStep[] {
  return dueTwoStage(ctx.db, JOB_STAGES, now).map(({ t, stage, id }) => ({ t, kind: stage === "next" ? "job_running" : "job_end", job_id: id }));
}

/**
 * Moves a job on: queued → running; then at its end a run longer than its maximum times out
 * (charged the maximum, no model), a fit that fails (a ridge that is not finite; a sandboxed run
 * that raises, crashes, or passes its limits) fails with the reason, and otherwise the job
 * completes with its CV metrics and its model pickled (a ridge's absent, with the reason, when no
 * interpreter can pickle it).
 * The charge is the runtime at the tier's rate; the hold is released.
 */
export async function applyJobStep(ctx: ServiceContext, step: JobStep): Promise<void> {
  const row = jobById(ctx.db, step.job_id);
  if (!row) return;
  if (step.kind === "job_running") {
    if (row.status !== "queued") return;
    inTransaction(ctx.db, () => {
      markJobRunning(ctx.db, row.job_id);
      appendEvent(ctx.db, step.t, "job.running", { job_id: row.job_id });
    });
    return;
  }
  if (row.status !== "queued" && row.status !== "running") return;
  const cost = costCents(Math.min(row.runtime_seconds, row.max_runtime_seconds), rateMicroPerHour(ctx, requestOf(row).gpu));
  if (row.runtime_seconds > row.max_runtime_seconds) return timeout(ctx, row, step.t, cost);
  const fit = await fitJob(ctx, row);
  if (!fit.ok) return failed(ctx, row, step.t, cost, fit.error);
  completed(ctx, row, step.t, cost, fit);
}

/** What a completed job leaves: its metrics and folds, its pickle (or why none), and a digest of what was learned. */
type JobFit = { cv: CvMetrics; folds: FoldResult[]; pickle: RidgePickle; model_digest: string };

/** Fits the job's model on its train rows: the ridge here, every other kind in the sandbox. A failure is its reason. */
async function fitJob(ctx: ServiceContext, row: JobRow): Promise<Outcome<JobFit>> {
  const sandboxed = sandboxFit(ctx, row);
  if (sandboxed === null) {
    const req = requestOf(row);
    const { dataset } = ctx.world;
    const truth = { train: jobTrainFrame(dataset.train, req), benchmark: dataset.benchmarks.train, target: req.target, core: dataset.core_features };
    let fit: RidgeFit;
    try {
      fit = fitRidgeCv({ ...truth, features: req.features, alpha: req.params.alpha as number });
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
    return { ok: true, cv: fit.cv, folds: fit.folds, pickle: await ridgePickle(req.features, fit.model, FILL_VALUE), model_digest: ridgeDigest(req.features, fit) };
  }
  const fit = await aheadOrNow(ctx, sandboxed.key, sandboxed.run);
  if (!fit.ok) return fit;
  return { ok: true, cv: fit.cv, folds: fit.folds, pickle: { ok: true, bytes: fit.pickle, python_version: fit.python_version }, model_digest: fit.model_digest };
}

/**
 * A job's sandboxed fit (null for a ridge, fitted in process), named by the job, whose request never changes:
 * it may start once the job is queued (src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts).
 */
export function sandboxFit(ctx: ServiceContext, row: JobRow): AheadWork<Outcome<PythonFit>> | null {
  const req = requestOf(row);
  const model = req.model;
  if (model === "ridge") return null;
  return {
    key: `fit:${row.job_id}`,
    t: row.ends_at,
    run: async () => {
      const { dataset } = ctx.world;
      const wall = Math.min(row.max_runtime_seconds, computeSettings(ctx)?.wall_seconds ?? DEFAULT_WALL_SECONDS);
      return fitInSandbox({
        train: jobTrainFrame(dataset.train, req),
        benchmark: dataset.benchmarks.train,
        target: req.target,
        core: dataset.core_features,
        model,
        params: req.params,
        features: req.features,
        custom_model_fn: req.custom_model_fn,
        wall_seconds: wall,
        isolation: await trainingIsolation(ctx, model),
      });
    },
  };
}

/**
 * The pickle's bytes depend on the machine (the Python and cloudpickle versions, whether an
 * interpreter exists), so the log carries a digest of what was learned instead: the features,
 * coefficients, intercept and fill value.
 */
function ridgeDigest(features: string[], fit: RidgeFit): string {
  const learned = { features, coefficients: [...fit.model.coefficients], intercept: fit.model.intercept, fill_value: FILL_VALUE };
  return createHash("sha256").update(canonicalJson(learned)).digest("hex");
}

function timeout(ctx: ServiceContext, row: JobRow, t: number, cost: number): void {
  const message = `the job needs ${row.runtime_seconds} s and may run ${row.max_runtime_seconds} s (max_hours, capped at the hard ceiling)`;
  inTransaction(ctx.db, () => {
    endJob(ctx.db, row.job_id, "timeout", cost, t, { error_message: message });
    appendEvent(ctx.db, t, "job.timeout", { job_id: row.job_id, cost_cents: cost });
  });
}

function failed(ctx: ServiceContext, row: JobRow, t: number, cost: number, message: string): void {
  inTransaction(ctx.db, () => {
    endJob(ctx.db, row.job_id, "failed", cost, t, { error_message: message });
    appendEvent(ctx.db, t, "job.failed", { job_id: row.job_id, cost_cents: cost, message });
  });
}

/** A completed job: its metrics, folds and pickle on the row (the pickle's own sha256 too); the log gets the digest of what was learned. */
function completed(ctx: ServiceContext, row: JobRow, t: number, cost: number, fit: JobFit): void {
  const { pickle } = fit;
  const sha = pickle.ok ? createHash("sha256").update(pickle.bytes).digest("hex") : null;
  inTransaction(ctx.db, () => {
    if (pickle.ok) keepModelFile(ctx.db, sha, pickle.bytes);
    endJob(ctx.db, row.job_id, "completed", cost, t, {
      metrics: JSON.stringify(fit.cv),
      fold_results: JSON.stringify(fit.folds),
      artifact_sha256: sha,
      artifact_error: pickle.ok ? null : pickle.error,
      trainer_python_version: pickle.ok ? pickle.python_version : null,
    });
    appendEvent(ctx.db, t, "job.completed", { job_id: row.job_id, cost_cents: cost, cv: fit.cv, model_digest: fit.model_digest });
  });
}
