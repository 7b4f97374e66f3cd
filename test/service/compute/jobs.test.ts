import { describe, expect, it } from "vitest";
import { requires } from "../../helpers/requires.js";
import { runPredict } from "../../../src/participant/run-predict.js";
import { authenticate } from "../../../src/service/kernel/auth.js";
import { cancelJob } from "../../../src/service/compute/jobs.js";
import { eventLines } from "../../../src/store/event-log.js";
import { eventHarness } from "../../helpers/event-harness.js";

const ANN = "key-ann-00000001";
const BEN = "key-ben-00000002";
const PIA = "key-pia-00000003";
const TOM = "key-tom-00000004";
const ORG = "organiser-key-0000";
const funded = { compute: { budget_usd: "5" } };
const SECOND = 1000;

/** The small event with a $5 grant per agent, at its start (or `before` ms earlier). */
const computeEvent = (event: Record<string, unknown> = funded, before = 0) => eventHarness(event, before);
const logTypes = (h: ReturnType<typeof computeEvent>) => [...eventLines(h.ctx.db)].map((l) => JSON.parse(l)).filter((e) => e.type.startsWith("job."));

describe("hosted training: who and when", () => {
  it("prices a job before the event opens (dry run) and refuses the launch with the spec's text", async () => {
    const h = computeEvent(funded, 60 * SECOND);
    const estimate = await h.service.train(ANN, { model: "ridge", dry_run: true });
    // 10 train expeds × 40 rows, 3 small features, 4 fits on a T4 (10 000 cells/s): 60 s setup + 1 s.
    expect(estimate).toEqual({
      dry_run: true,
      estimated_hold_cents: 38,
      max_runtime_seconds: 2700,
      estimated_runtime_seconds: 61,
      estimated_cost_cents: 1,
      rate_usd_per_hr: "0.50",
      model: "ridge",
      gpu: "T4",
      universe: "futures",
      target: "target_everest",
      features: h.world.dataset.features.slice().sort().slice(0, 3),
      max_hours: 1,
    });
    await expect(h.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({ status: 403, message: "Your hackathon has not started yet" });
    expect(await h.service.computeCredits(ANN)).toEqual({ grant_cents: 500, available_cents: 500, reserved_cents: 0, total_spent_usd: 0 });
  });

  it("refuses a max_hours under one second (it would hold nothing), and counts a grant under a cent as no budget", async () => {
    const h = computeEvent();
    await expect(h.service.train(ANN, { model: "ridge", gpu: "A100", max_hours: 0.0002 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("max_hours"),
    });
    const zero = computeEvent({ compute: { budget_usd: "0" } });
    await expect(zero.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({ status: 403, code: "compute_no_budget" });
  });

  it("is for event keys: practice, tournament and organiser-less keys are refused by scope first", async () => {
    const h = computeEvent();
    await expect(h.service.train(PIA, { model: "ridge", dry_run: true })).rejects.toMatchObject({ status: 403, code: "insufficient_scope" });
    await expect(h.service.train(TOM, { model: "ridge" })).rejects.toMatchObject({ status: 403, code: "scope_restricted" });
    await expect(h.service.listJobs(PIA)).rejects.toMatchObject({ code: "insufficient_scope" });
  });

  it("refuses a launch without a compute budget, while paused, and once the event has ended", async () => {
    const bare = computeEvent({});
    expect(await bare.service.train(ANN, { model: "ridge", gpu: "A100", dry_run: true })).toMatchObject({ estimated_hold_cents: 135 });
    await expect(bare.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({
      status: 403,
      message: "Hosted compute is not available: this event has no compute budget.",
    });
    expect(await bare.service.computeCredits(ANN)).toMatchObject({ grant_cents: 0, available_cents: 0 });

    const h = computeEvent();
    await h.service.toggleFault(ORG, "compute_paused", undefined, true);
    await expect(h.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({ status: 503, code: "compute_paused" });
    expect(await h.service.train(ANN, { model: "ridge", dry_run: true })).toMatchObject({ dry_run: true });
    await h.service.toggleFault(ORG, "compute_paused", undefined, false);
    expect(await h.service.train(ANN, { model: "ridge" })).toMatchObject({ status: "queued" });

    await h.at(h.world.schedule.phases.at(-1)!.start);
    await expect(h.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({
      status: 403,
      message: "Hosted compute is not live: the event is in its done phase.",
    });
  });

  it("checks the gates before the body: a bad body on a paused service answers 503", async () => {
    const h = computeEvent();
    await h.service.toggleFault(ORG, "compute_paused", undefined, true);
    await expect(h.service.train(ANN, { model: "catboost" })).rejects.toMatchObject({ status: 503 });
    await h.service.toggleFault(ORG, "compute_paused", undefined, false);
    await expect(h.service.train(ANN, { model: "catboost" })).rejects.toMatchObject({ status: 400, code: "train_field_invalid" });
  });

  it("refuses a hold above the credit available, naming both amounts", async () => {
    const h = computeEvent({ compute: { budget_usd: "0.40" } });
    expect(await h.service.train(ANN, { model: "ridge" })).toMatchObject({ hold_cents: 38 });
    await expect(h.service.train(ANN, { model: "ridge" })).rejects.toMatchObject({
      status: 409,
      message: "Not enough compute credit: this job holds 38 cents and 2 cents are available.",
    });
    // A shorter max_hours holds less: 0.01 h = 36 s at $0.50/h is 1 cent.
    expect(await h.service.train(ANN, { model: "ridge", max_hours: 0.01 })).toMatchObject({ hold_cents: 1 });
  });
});

describe("a training job's life", () => {
  requires("python").it("queues, runs, completes with exped-purged CV metrics, charges its runtime and releases its hold", async () => {
    const h = computeEvent();
    const t0 = h.clock.now();
    const job = await h.service.train(ANN, { model: "ridge", features: "all", params: { seed: 3 } });
    expect(job).toMatchObject({ status: "queued", hold_cents: 38, max_runtime_seconds: 2700, cost_cents: null, metrics: null });
    if ("dry_run" in job) throw new Error("not a job");
    // 10 features: 60 s + ceil(400 × 10 × 4 / 10 000) = 62 s.
    expect(job.runtime_seconds).toBe(62);
    expect(await h.service.computeCredits(ANN)).toEqual({ grant_cents: 500, available_cents: 462, reserved_cents: 38, total_spent_usd: 0 });
    await h.at(t0 + SECOND);
    expect(await h.service.getJob(ANN, job.job_id)).toMatchObject({ status: "running" });
    await h.at(t0 + 62 * SECOND);
    expect(await h.service.getJob(ANN, job.job_id)).toMatchObject({ status: "running" });
    await h.at(t0 + 63 * SECOND);
    const done = await h.service.getJob(ANN, job.job_id);
    expect(done).toMatchObject({ status: "completed", cost_cents: 1, error_message: null, trainer_python_version: expect.stringMatching(/^3\.\d+$/) });
    expect(done.feature_manifest.features).toEqual(h.world.dataset.features);
    const cv = done.metrics!.cv;
    expect(cv).toMatchObject({ folds: 3, expeds_scored: 10, embargo_expeds: 1 });
    for (const term of [cv.corr, cv.aimc_estimate, cv.ncorr]) {
      expect(Number.isFinite(term.mean)).toBe(true);
      expect(term.std).toBeGreaterThan(0);
    }
    // The planted signal is learnable: a ridge on every feature correlates with the target out of fold.
    expect(cv.corr.mean).toBeGreaterThan(0);
    expect(await h.service.computeCredits(ANN)).toEqual({ grant_cents: 500, available_cents: 499, reserved_cents: 0, total_spent_usd: 0.01 });
    expect(logTypes(h).map((e) => [e.type, e.t - t0])).toEqual([
      ["job.queued", 0],
      ["job.running", 1000],
      ["job.completed", 63000],
    ]);
    // The log names what was learned, not the pickle's machine-dependent bytes.
    const completed = logTypes(h)[2].payload as { model_digest: string };
    expect(completed).toMatchObject({ job_id: job.job_id, cost_cents: 1, model_digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(completed.model_digest).not.toBe(done.artifact.sha256);
    expect(await h.service.listJobs(ANN)).toEqual({ jobs: [done] });
    await expect(h.service.getJob(BEN, job.job_id)).rejects.toMatchObject({ status: 404, message: `Job ${job.job_id} not found` });
  });

  requires("python").it("gives a model that predicts the live round through the lanes' own runner", async () => {
    const h = computeEvent();
    const job = await h.service.train(ANN, { model: "ridge", features: "all" });
    if ("dry_run" in job) throw new Error("not a job");
    await expect(h.service.downloadModel(ANN, job.job_id)).rejects.toMatchObject({ status: 409, code: "job_model_not_ready" });
    await h.at(h.clock.now() + 120 * SECOND);
    const model = await h.service.downloadModel(ANN, job.job_id);
    expect(model.filename).toBe(`${job.job_id}.pkl`);
    const live = h.world.dataset.rounds[0];
    const out = await runPredict({ isolation: "trusted", pkl: model.bytes, features: live.frame, benchmark: live.benchmark, timeout_seconds: 60 });
    if (!out.ok) throw new Error(out.error);
    expect(out.column).toBe("prediction");
    expect(out.ids).toEqual(live.frame.ids);
    expect([...out.values].every((v) => v > 0 && v < 1)).toBe(true);
    expect(new Set(out.values).size).toBeGreaterThan(live.frame.ids.length / 2);
  });

  it("times out a run longer than max_hours allows: charged the maximum, no metrics, no model", async () => {
    const h = computeEvent();
    const t0 = h.clock.now();
    const job = await h.service.train(ANN, { model: "ridge", gpu: "CPU", features: "all", max_hours: 0.01 });
    if ("dry_run" in job) throw new Error("not a job");
    // CPU: 60 s + ceil(16 000 / 2 000) = 68 s of work; 0.01 h allows 36 s.
    expect(job).toMatchObject({ runtime_seconds: 68, max_runtime_seconds: 36, hold_cents: 1 });
    await h.at(t0 + 37 * SECOND);
    const ended = await h.service.getJob(ANN, job.job_id);
    expect(ended).toMatchObject({ status: "timeout", cost_cents: 1, metrics: null, artifact: { available: false } });
    expect(ended.error_message).toContain("68 s");
    await expect(h.service.downloadModel(ANN, job.job_id)).rejects.toMatchObject({ status: 409 });
  });

  it("cancels a queued job free and a running one for the seconds it ran; an ended job is not cancelled", async () => {
    const h = computeEvent();
    const t0 = h.clock.now();
    const a = await h.service.train(ANN, { model: "ridge", gpu: "A100" });
    const b = await h.service.train(ANN, { model: "ridge", gpu: "A100" });
    if ("dry_run" in a || "dry_run" in b) throw new Error("not a job");
    expect(await h.service.cancelJob(ANN, a.job_id)).toMatchObject({ status: "cancelled", cost_cents: 0 });
    await h.at(t0 + 31 * SECOND);
    // 30 s on an A100 at $1.79/h = 1.49 cents, rounded up.
    expect(await h.service.cancelJob(ANN, b.job_id)).toMatchObject({ status: "cancelled", cost_cents: 2 });
    await expect(h.service.cancelJob(ANN, b.job_id)).rejects.toMatchObject({
      status: 409,
      message: `Job ${b.job_id} already ended (cancelled); only a queued or running job can be cancelled.`,
    });
    await h.at(t0 + 600 * SECOND);
    expect(await h.service.getJob(ANN, b.job_id)).toMatchObject({ status: "cancelled" });
    expect(await h.service.computeCredits(ANN)).toEqual({ grant_cents: 500, available_cents: 498, reserved_cents: 0, total_spent_usd: 0.02 });
  });

  it("never charges a cancelled job beyond its own runtime, even when the clock passed its end unsynced", async () => {
    const h = computeEvent();
    const job = await h.service.train(ANN, { model: "ridge", gpu: "A100" });
    if ("dry_run" in job) throw new Error("not a job");
    await h.at(h.clock.now() + 2 * SECOND);
    // As a realtime clock can: far past the job's end, with no sync in between.
    h.clock.set(h.clock.now() + 3600 * SECOND);
    const cancelled = cancelJob(h.ctx, authenticate(h.ctx, ANN), job.job_id);
    // 61 s on an A100 at $1.79/h = 3.03 cents, rounded up: not the 100-cent hold.
    expect(cancelled).toMatchObject({ status: "cancelled", cost_cents: 4 });
  });

  it("answers the same job, metrics and log from the same scenario", async () => {
    const run = async () => {
      const h = computeEvent();
      await h.service.train(ANN, { model: "ridge", features: "all" });
      await h.at(h.clock.now() + 120 * SECOND);
      return [...eventLines(h.ctx.db)];
    };
    expect(await run()).toEqual(await run());
  });
});

describe("get_started", () => {
  it("says whether hosted training is funded, lists train among the next actions, and gives the rate card", async () => {
    const h = computeEvent();
    const ann = await h.service.getStarted(ANN);
    expect(ann).toMatchObject({
      hosted_train_funded: true,
      compute_rate_card_usd_per_hr: { CPU: 0.1, T4: 0.5, A10G: 1.1, A100: 1.79 },
    });
    expect(ann.next_actions).toContain("train");
    const pia = await h.service.getStarted(PIA);
    expect(pia).toMatchObject({ hosted_train_funded: false });
    expect(pia.next_actions).not.toContain("train");
    const bare = await computeEvent({}).service.getStarted(ANN);
    expect(bare).toMatchObject({ hosted_train_funded: false });
    expect(bare.next_actions).not.toContain("train");
  });
});
