import { createHash } from "node:crypto";
import { passes, refuse } from "../../domain/errors.js";
import { serviceId } from "../../domain/ids.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { nextInSequence } from "../../store/sequence.js";
import type { Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { costCents, maxRuntimeSeconds, QUEUE_SECONDS, workSeconds } from "./estimate.js";
import { requireComputeLive, requireComputeScope } from "./gate.js";
import { agentCents, endJob, jobById, jobsOf, OPEN_STATUSES, type JobRow, insertJob } from "../../store/jobs.js";
import { requestOf } from "./train-request.js";
import { jobView, type JobView } from "./job-view.js";
import { FILL_VALUE } from "./cv-plan.js";
import { requireSafeSource } from "./custom-scan.js";
import { jobLog, type JobLog } from "./job-log.js";
import { machineCents } from "../../store/machines.js";
import { jobTrainFrame } from "./train-filter.js";
import { computeSettings, rateCard, rateMicroPerHour, usdCents } from "../kernel/settings/compute.js";
import { parseTrainRequest, type TrainRequest } from "./train-request.js";
import { requireTrainable } from "./training-python.js";
import { modelFileBytes } from "../../store/model-uploads.js";

/** A dry run's answer: what the job would hold and run for; nothing is reserved. */
export interface TrainEstimate {
  dry_run: true;
  estimated_hold_cents: number;
  max_runtime_seconds: number;
  estimated_runtime_seconds: number;
  estimated_cost_cents: number;
  rate_usd_per_hr: string;
  model: string;
  gpu: string;
  universe: string;
  target: string;
  features: string[];
  max_hours: number;
}

export interface ComputeCredits {
  /** The agent's pre-funded grant; 0 when the event has no compute budget. */
  grant_cents: number;
  available_cents: number;
  reserved_cents: number;
  total_spent_usd: number;
}

/** The preset's preprocessing, as feature_manifest states it. */
const preprocessing = (model: string) => ({
  missing: `NaN becomes ${FILL_VALUE.toFixed(1)}`,
  sentinel: "-1 passes through as an ordinary value",
  output: `the ${model} output rank-uniformised into (0, 1)`,
});

/**
 * `train`: a dry run prices the job (before the event, with compute off or without a budget);
 * otherwise the launch is gated (gate.ts), its body read, and its worst-case hold reserved from the
 * agent's grant: a hold above what is available is refused (409). A custom_model_fn is scanned
 * (custom-scan.ts) before anything is held. The job queues, runs a second later, and ends after
 * its simulated runtime (job-steps.ts).
 */
export async function train(ctx: ServiceContext, p: Principal, body: Record<string, unknown>): Promise<TrainEstimate | JobView> {
  requireComputeScope(p, "hosted training");
  const data = { features: ctx.world.dataset.features, target: ctx.world.dataset.target };
  if (body.dry_run === true) {
    const asked = parseTrainRequest(body, data);
    await requireTrainable(ctx, asked.model);
    return estimate(ctx, asked);
  }
  requireComputeLive(ctx);
  const req = parseTrainRequest(body, data);
  await requireTrainable(ctx, req.model);
  const rows = jobTrainFrame(ctx.world.dataset.train, req).ids.length;
  if (req.custom_model_fn !== undefined) await requireSafeSource(req.custom_model_fn);
  return inTransaction(ctx.db, () => {
    const t = ctx.clock.now();
    const plan = planOf(ctx, req, rows);
    const { available_cents } = credits(ctx, p.agent_id);
    if (plan.hold > available_cents) throw refuse("compute_insufficient_credit", { hold_cents: plan.hold, available_cents });
    const seq = nextInSequence(ctx.db, "compute_job");
    const jobId = serviceId("job", ctx.world.deployment.seed, "compute_job", seq);
    const runningAt = t + QUEUE_SECONDS * 1000;
    insertJob(ctx.db, {
      job_id: jobId,
      seq,
      agent_id: p.agent_id,
      request: JSON.stringify(req),
      hold_cents: plan.hold,
      runtime_seconds: plan.work,
      max_runtime_seconds: plan.max,
      created_at: t,
      running_at: runningAt,
      ends_at: runningAt + Math.min(plan.work, plan.max) * 1000,
      feature_manifest: JSON.stringify({ features: req.features, preprocessing: preprocessing(req.model) }),
    });
    appendEvent(ctx.db, t, "job.queued", {
      job_id: jobId,
      agent: p.agent,
      model: req.model,
      gpu: req.gpu,
      n_features: req.features.length,
      max_hours: req.max_hours,
      hold_cents: plan.hold,
      runtime_seconds: plan.work,
      // Only when given, so a ridge on the whole split logs as it always has.
      ...(req.train_filter ? { train_filter: req.train_filter, train_rows: rows } : {}),
      ...(req.custom_model_fn !== undefined ? { custom_model_fn_sha256: createHash("sha256").update(req.custom_model_fn).digest("hex") } : {}),
    });
    return jobView(jobById(ctx.db, jobId) as JobRow);
  });
}

/** A job's price and runtime: its workload is its kind and params, the train rows it uses (train_filter's, or the whole split) and its features. */
function planOf(ctx: ServiceContext, req: TrainRequest, rows: number) {
  const rate = rateMicroPerHour(ctx, req.gpu);
  const max = maxRuntimeSeconds(req.max_hours);
  const work = workSeconds({ model: req.model, params: req.params, rows, features: req.features.length }, req.gpu);
  return { max, work, hold: costCents(max, rate), cost: costCents(Math.min(work, max), rate) };
}

function estimate(ctx: ServiceContext, req: TrainRequest): TrainEstimate {
  const plan = planOf(ctx, req, jobTrainFrame(ctx.world.dataset.train, req).ids.length);
  return {
    dry_run: true,
    estimated_hold_cents: plan.hold,
    max_runtime_seconds: plan.max,
    estimated_runtime_seconds: plan.work,
    estimated_cost_cents: plan.cost,
    rate_usd_per_hr: rateCard(ctx)[req.gpu],
    model: req.model,
    gpu: req.gpu,
    universe: req.universe,
    target: req.target,
    features: req.features,
    max_hours: req.max_hours,
  };
}

/** The agent's grant, and what its jobs and its machines hold and cost, apart: what `credits` sums. */
export function creditParts(ctx: ServiceContext, agentId: string): { grant: number; jobs: { reserved: number; spent: number }; machines: { reserved: number; spent: number } } {
  const settings = computeSettings(ctx);
  return { grant: settings ? usdCents(settings.budget_usd) : 0, jobs: agentCents(ctx.db, agentId), machines: machineCents(ctx.db, agentId) };
}

/** The agent's grant, what its open jobs and running machine hold, and what its ended jobs and stopped machines cost. */
export function credits(ctx: ServiceContext, agentId: string): ComputeCredits {
  return creditsOf(creditParts(ctx, agentId));
}

/** The credits endpoint's body from the parts. */
export function creditsOf({ grant, jobs, machines }: ReturnType<typeof creditParts>): ComputeCredits {
  const reserved = jobs.reserved + machines.reserved;
  const spent = jobs.spent + machines.spent;
  return { grant_cents: grant, available_cents: Math.max(0, grant - reserved - spent), reserved_cents: reserved, total_spent_usd: spent / 100 };
}

export function getCredits(ctx: ServiceContext, p: Principal): ComputeCredits {
  requireComputeScope(p, "compute credits");
  return credits(ctx, p.agent_id);
}

/** The caller's job; another agent's answers as not found. */
function ownJob(ctx: ServiceContext, p: Principal, jobId: string): JobRow {
  requireComputeScope(p, "compute jobs");
  const row = jobById(ctx.db, jobId);
  if (!row || row.agent_id !== p.agent_id) throw refuse("job_not_found", { job_id: jobId });
  return row;
}

export function getJob(ctx: ServiceContext, p: Principal, jobId: string): JobView {
  return jobView(ownJob(ctx, p, jobId));
}

/** A job's lifecycle trail: queued, running, its CV folds' results, how it ended (job-log.ts). */
export function getJobLog(ctx: ServiceContext, p: Principal, jobId: string): JobLog {
  return jobLog(ownJob(ctx, p, jobId));
}

export function listJobs(ctx: ServiceContext, p: Principal): { jobs: JobView[] } {
  requireComputeScope(p, "compute jobs");
  return { jobs: jobsOf(ctx.db, p.agent_id).map(jobView) };
}

/** Cancels a queued job (no charge) or a running one (charged for the seconds it ran); its hold is released. */
export function cancelJob(ctx: ServiceContext, p: Principal, jobId: string): JobView {
  return inTransaction(ctx.db, () => {
    const row = ownJob(ctx, p, jobId);
    if (!OPEN_STATUSES.includes(row.status)) throw refuse("job_already_finished", { job_id: jobId, status: row.status });
    const t = ctx.clock.now();
    // Capped at the job's own runtime: a realtime clock may have passed its end since the last sync.
    const ran = row.status === "running" ? Math.min(Math.ceil((t - row.running_at) / 1000), row.runtime_seconds, row.max_runtime_seconds) : 0;
    const cost = Math.min(row.hold_cents, costCents(ran, rateMicroPerHour(ctx, requestOf(row).gpu)));
    endJob(ctx.db, jobId, "cancelled", cost, t);
    appendEvent(ctx.db, t, "job.cancelled", { job_id: jobId, ran_seconds: ran, cost_cents: cost });
    return jobView(jobById(ctx.db, jobId) as JobRow);
  });
}

/** A completed job's model: the cloudpickled predict callable's bytes. */
export function downloadModel(ctx: ServiceContext, p: Principal, jobId: string): { filename: string; sha256: string; bytes: Uint8Array } {
  const row = ownJob(ctx, p, jobId);
  if (row.status !== "completed") throw refuse("job_model_not_ready", { job_id: jobId, status: row.status });
  if (row.artifact_sha256 === null) throw refuse("job_model_absent", { job_id: jobId, reason: row.artifact_error ?? "none was made" });
  return { filename: `${jobId}.pkl`, sha256: row.artifact_sha256, bytes: new Uint8Array(modelFileBytes(ctx.db, row.artifact_sha256)) };
}

/** Whether `p` could launch a job now (`get_started`'s `hosted_train_funded`): the launch checks themselves, and credit left. */
export function computeFunded(ctx: ServiceContext, p: Principal): boolean {
  return passes(() => {
    requireComputeScope(p, "train");
    requireComputeLive(ctx);
  }) && credits(ctx, p.agent_id).available_cents > 0;
}
