import { createHash } from "node:crypto";
import { ridgePickle, type RidgePickle } from "../../data/ridge-pickle.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "../deployment.js";
import { costCents } from "./estimate.js";
import { endJob, jobById, requestOf, type JobRow } from "./job-repo.js";
import { FILL_VALUE, fitRidgeCv, type RidgeFit } from "./ridge-cv.js";
import { rateMicroPerHour } from "./settings.js";
import { dueTwoStage } from "../../store/two-stage.js";

/** A job's next transition, due at `t`. */
export interface JobStep {
  t: number;
  kind: "job_running" | "job_end";
  job_id: string;
}

const JOB_STAGES = { table: "compute_jobs", id: "job_id", from: "queued", next: "running", firstAt: "running_at", endAt: "ends_at" };

export function dueJobSteps(ctx: ServiceContext, now: number): JobStep[] {
  return dueTwoStage(ctx.db, JOB_STAGES, now).map(({ t, stage, id }) => ({ t, kind: stage === "next" ? "job_running" : "job_end", job_id: id }));
}

/**
 * Moves a job on: queued → running; then at its end a run longer than its maximum times out
 * (charged the maximum, no model), a fit that is not finite fails, and otherwise the job completes
 * with its CV metrics and its model pickled (absent, with the reason, when no interpreter can).
 * The charge is the runtime at the tier's rate; the hold is released.
 */
export async function applyJobStep(ctx: ServiceContext, step: JobStep): Promise<void> {
  const row = jobById(ctx.db, step.job_id);
  if (!row) return;
  if (step.kind === "job_running") {
    if (row.status !== "queued") return;
    inTransaction(ctx.db, () => {
      ctx.db.prepare("UPDATE compute_jobs SET status = 'running' WHERE job_id = ?").run(row.job_id);
      appendEvent(ctx.db, step.t, "job.running", { job_id: row.job_id });
    });
    return;
  }
  if (row.status !== "queued" && row.status !== "running") return;
  const cost = costCents(Math.min(row.runtime_seconds, row.max_runtime_seconds), rateMicroPerHour(ctx, requestOf(row).gpu));
  if (row.runtime_seconds > row.max_runtime_seconds) return timeout(ctx, row, step.t, cost);
  let fit: RidgeFit;
  try {
    fit = fitJob(ctx, row);
  } catch (e) {
    return failed(ctx, row, step.t, cost, (e as Error).message);
  }
  const pickle = await ridgePickle(requestOf(row).features, fit.model, FILL_VALUE);
  completed(ctx, row, step.t, cost, fit, pickle);
}

function fitJob(ctx: ServiceContext, row: JobRow): RidgeFit {
  const req = requestOf(row);
  const { dataset } = ctx.world;
  return fitRidgeCv({
    train: dataset.train,
    benchmark: dataset.benchmarks.train,
    features: req.features,
    target: req.target,
    core: dataset.core_features,
    alpha: req.params.alpha,
  });
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

/**
 * The pickle's bytes depend on the machine (the Python and cloudpickle versions,
 * whether an interpreter exists), so the log carries a digest of what was learned instead: the
 * features, coefficients, intercept and fill value. The job row keeps the pickle's own sha256.
 */
function completed(ctx: ServiceContext, row: JobRow, t: number, cost: number, fit: RidgeFit, pickle: RidgePickle): void {
  const sha = pickle.ok ? createHash("sha256").update(pickle.bytes).digest("hex") : null;
  const learned = { features: requestOf(row).features, coefficients: [...fit.model.coefficients], intercept: fit.model.intercept, fill_value: FILL_VALUE };
  const modelDigest = createHash("sha256").update(canonicalJson(learned)).digest("hex");
  inTransaction(ctx.db, () => {
    if (pickle.ok) ctx.db.prepare("INSERT OR IGNORE INTO model_files (sha256, bytes) VALUES (?, ?)").run(sha, pickle.bytes);
    endJob(ctx.db, row.job_id, "completed", cost, t, {
      metrics: JSON.stringify(fit.cv),
      artifact_sha256: sha,
      artifact_error: pickle.ok ? null : pickle.error,
      trainer_python_version: pickle.ok ? pickle.python_version : null,
    });
    appendEvent(ctx.db, t, "job.completed", { job_id: row.job_id, cost_cents: cost, cv: fit.cv, model_digest: modelDigest });
  });
}
