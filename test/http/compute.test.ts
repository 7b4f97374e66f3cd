import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { callTool, mcpClient } from "../mcp/client.js";
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
  requires("python").it("trains, polls and downloads the model to a file; an unknown argument is refused by name", async () => {
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
    expect(saved.path).toMatch(new RegExp(`${job.job_id}\\.pkl$`));
    expect(createHash("sha256").update(readFileSync(saved.path)).digest("hex")).toBe(saved.sha256);
    expect((await callTool(ann, "cancel_job", { job_id: job.job_id })).json.detail).toMatchObject({ code: "job_already_finished" });
  });
});
