import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { callTool, fetchDownload, mcpClient } from "../mcp/client.js";
import { ANN, PIA, eventServer, toPhase } from "./event-server.js";
import { ORGANISER, refusal, type TestServer } from "./server.js";

const TRAIN = "/api/v1/compute/train";

let s: TestServer;
beforeAll(async () => {
  s = await eventServer({ compute: { budget_usd: "5" } });
});

describe("hosted compute over REST", () => {
  it("prices with dry_run (200), refuses unknown fields and a top-level seed with 400, launches with 202", async () => {
    const dry = await s.post(TRAIN, { model: "ridge", dry_run: true, gpu: "CPU" }, ANN);
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dry_run: true, estimated_hold_cents: 8, max_runtime_seconds: 2700, gpu: "CPU", model: "ridge", universe: "futures" });
    expect(refusal(await s.post(TRAIN, { model: "ridge", sample_pct: 25 }, ANN))).toMatchObject({ status: 400, code: "train_unknown_fields", message: expect.stringContaining("sample_pct") });
    expect(refusal(await s.post(TRAIN, { model: "ridge", seed: 1 }, ANN))).toMatchObject({ status: 400, code: "train_seed_top_level" });
    expect(refusal(await s.post(TRAIN, { model: "ridge" }, PIA))).toMatchObject({ status: 403, code: "insufficient_scope" });
    const launched = await s.post(TRAIN, { model: "ridge", features: "all", params: { seed: 1 } }, ANN);
    expect(launched.status).toBe(202);
    expect(launched.json).toMatchObject({ status: "queued", hold_cents: 38 });
    const credits = await s.get("/api/v1/compute/credits", ANN);
    expect(credits.json).toEqual({ grant_cents: 500, available_cents: 462, reserved_cents: 38, total_spent_usd: 0 });
  });

  requires("python").it("answers a completed job's download_url, serves the model there as octet-stream, lists and cancels jobs", async () => {
    const jobs = (await s.get("/api/v1/compute/jobs", ANN)).json.jobs;
    const id = jobs[0].job_id;
    expect(refusal(await s.get(`/api/v1/compute/jobs/${id}/model`, ANN))).toMatchObject({ status: 409, code: "job_model_not_ready" });
    await s.advance({ seconds: 120 });
    const done = await s.get(`/api/v1/compute/jobs/${id}`, ANN);
    expect(done.json).toMatchObject({ status: "completed", cost_cents: 1, metrics: { cv: { corr: { mean: expect.any(Number), std: expect.any(Number) } } } });
    const where = await s.get(`/api/v1/compute/jobs/${id}/model`, ANN);
    expect(where.json).toEqual({ download_url: `${s.url}/api/v1/compute/jobs/${id}/model/file`, filename: `${id}.pkl`, sha256: done.json.artifact.sha256 });
    const model = await s.get(new URL(where.json.download_url).pathname, ANN);
    expect(model.status).toBe(200);
    expect(model.headers.get("content-type")).toBe("application/octet-stream");
    expect(createHash("sha256").update(model.bytes).digest("hex")).toBe(done.json.artifact.sha256);
    expect(refusal(await s.call("DELETE", `/api/v1/compute/jobs/${id}`, { key: ANN }))).toMatchObject({ status: 409, code: "job_already_finished" });
    const next = (await s.post(TRAIN, { model: "ridge" }, ANN)).json;
    const cancelled = await s.call("DELETE", `/api/v1/compute/jobs/${next.job_id}`, { key: ANN });
    expect(cancelled.json).toMatchObject({ status: "cancelled", cost_cents: 0 });
    expect(refusal(await s.get("/api/v1/compute/jobs/job_nope", ANN))).toMatchObject({ status: 404, message: "Job job_nope not found" });
  });

  it("pauses by the organiser's fault toggle, and refuses launches once the event has ended", async () => {
    const on = await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "compute_paused", on: true } });
    expect(on.status).toBe(200);
    expect(refusal(await s.post(TRAIN, { model: "ridge" }, ANN))).toMatchObject({ status: 503, code: "compute_paused" });
    expect((await s.get("/api/v1/status", ANN)).json).toMatchObject({ hosted_train_funded: false });
    await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "compute_paused", on: false } });
    expect((await s.get("/api/v1/status", ANN)).json.next_actions).toContain("train");
    await toPhase(s, "done");
    expect(refusal(await s.post(TRAIN, { model: "ridge" }, ANN))).toMatchObject({ status: 403, code: "compute_not_live" });
    expect((await s.post(TRAIN, { model: "ridge", dry_run: true }, ANN)).status).toBe(200);
  });
});

describe("hosted compute over MCP", () => {
  requires("python").it("trains, polls and downloads the model by its URL; an unknown argument is refused by name", async () => {
    const m = await eventServer({ compute: { budget_usd: "5" } });
    const ann = await mcpClient(m.url, { "X-API-Key": ANN });
    const unknown = await callTool(ann, "train", { model: "ridge", sample_pct: 10 });
    expect(unknown.isError).toBe(true);
    expect(unknown.json.detail).toMatchObject({ code: "train_unknown_fields", message: expect.stringContaining("sample_pct") });
    expect((await callTool(ann, "train", { model: "ridge", dry_run: true })).json).toMatchObject({ estimated_hold_cents: 38 });
    const job = (await callTool(ann, "train", { model: "ridge", gpu: "CPU" })).json;
    expect(job.status).toBe("queued");
    await m.advance({ seconds: 120 });
    expect((await callTool(ann, "get_job_status", { job_id: job.job_id })).json.status).toBe("completed");
    expect((await callTool(ann, "list_compute_jobs")).json.jobs).toHaveLength(1);
    expect((await callTool(ann, "get_compute_credits")).json).toMatchObject({ reserved_cents: 0, total_spent_usd: 0.01 });
    const saved = (await callTool(ann, "download_model", { job_id: job.job_id })).json;
    // Over HTTP the answer is the REST URL of the file, never a path on the server.
    expect(saved).toMatchObject({ download_url: `${m.url}/api/v1/compute/jobs/${job.job_id}/model/file`, filename: `${job.job_id}.pkl` });
    expect(saved).not.toHaveProperty("path");
    expect(createHash("sha256").update(await fetchDownload(saved.download_url, ANN)).digest("hex")).toBe(saved.sha256);
    expect((await callTool(ann, "cancel_job", { job_id: job.job_id })).json.detail).toMatchObject({ code: "job_already_finished" });
  });
});

describe("train_filter and get_job_log over REST and MCP", () => {
  const filter = { exped: { cutoff_lt: "exped_0009" }, sample: { fraction: 0.75, unit: "exped" } };

  it("trains on the filtered expeds only and gives the job's lifecycle trail at simulated times", async () => {
    const r = await eventServer({ compute: { budget_usd: "5" } });
    const dry = (await r.post(TRAIN, { model: "ridge", features: "all", train_filter: filter, dry_run: true }, ANN)).json;
    // 8 expeds before exped_0009, 6 of them sampled: 240 rows × 10 features × 4 fits on a T4 = 1 s after the 60 s setup.
    expect(dry).toMatchObject({ estimated_runtime_seconds: 61 });
    expect(refusal(await r.post(TRAIN, { model: "ridge", train_filter: { exped: { cutoff_lt: "exped_0000" } } }, ANN))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^train_filter\.exped\.cutoff_lt: no train exped sorts before exped_0000/),
    });
    const job = (await r.post(TRAIN, { model: "ridge", features: "all", train_filter: filter, params: { seed: 5 } }, ANN)).json;
    expect(job).toMatchObject({ status: "queued", train_filter: filter });
    const queued = (await r.get(`/api/v1/compute/jobs/${job.job_id}/log`, ANN)).json;
    expect(queued).toMatchObject({ job_id: job.job_id, status: "queued", entries: [{ event: "queued", at: job.created_at, model: "ridge", hold_cents: 38 }] });
    await r.advance({ seconds: 120 });
    const done = (await r.get(`/api/v1/compute/jobs/${job.job_id}`, ANN)).json;
    expect(done.metrics.cv).toMatchObject({ expeds_scored: 6 });
    const trail = (await r.get(`/api/v1/compute/jobs/${job.job_id}/log`, ANN)).json;
    const events = trail.entries.map((e: { event: string }) => e.event);
    expect(events).toEqual(["queued", "running", ...Array(done.metrics.cv.folds).fill("fold"), "completed"]);
    const folds = trail.entries.filter((e: { event: string }) => e.event === "fold");
    expect(folds.reduce((n: number, f: { held_expeds: number }) => n + f.held_expeds, 0)).toBe(6);
    expect(trail.entries[1].at).toBe(done.running_at);
    expect(trail.entries.at(-1)).toEqual({ at: done.finished_at, event: "completed", cost_cents: done.cost_cents, error_message: null });
    const times = trail.entries.map((e: { at: string }) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a: number, b: number) => a - b));
    expect(refusal(await r.get(`/api/v1/compute/jobs/${job.job_id}/log`, "key-ben-00000002"))).toMatchObject({ status: 404, code: "job_not_found" });

    const ann = await mcpClient(r.url, { "X-API-Key": ANN });
    expect((await callTool(ann, "get_job_log", { job_id: job.job_id })).json).toEqual(trail);
    const viaMcp = (await callTool(ann, "train", { model: "ridge", train_filter: { sample: { fraction: 0.5 } }, params: { seed: 5 } })).json;
    expect(viaMcp).toMatchObject({ status: "queued", train_filter: { sample: { fraction: 0.5, unit: "exped" } } });
    await r.advance({ seconds: 120 });
    const mcpTrail = (await callTool(ann, "get_job_log", { job_id: viaMcp.job_id })).json;
    expect(mcpTrail.entries.map((e: { event: string }) => e.event)).toContain("fold");
    expect(mcpTrail.entries.at(-1)).toMatchObject({ event: "completed" });
  });
});
