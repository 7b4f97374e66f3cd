import { beforeAll, describe, expect, it } from "vitest";
import { readFrameParquet } from "../../src/data/parquet.js";
import { ALICE, BOB, refusal, testServer, type TestServer } from "./server.js";

/** Round 1 of the small scenario is open at the start of the season. */
let s: TestServer;
let exped: string;
let ids: string[];
const full = (value: unknown = 0.5) => ids.map((instrument_id) => ({ instrument_id, prediction: value }));
const submit = (predictions: unknown, extra: Record<string, unknown> = {}, key = ALICE) =>
  s.post("/api/v1/futures/submit/v2", { model_id: "alice-model", exped, predictions, ...extra }, key);

beforeAll(async () => {
  s = await testServer();
  expect((await s.post("/api/v1/models", { name: "alice-model" }, ALICE)).status).toBe(201);
  const round = await s.get("/api/v1/futures/rounds/current/instruments", ALICE);
  ({ exped, instrument_ids: ids } = round.json);
});

describe("models over HTTP", () => {
  it("creates with 201, answers an owned name with 200 already_exists, lists and archives", async () => {
    const again = await s.post("/api/v1/models", { name: "alice-model" }, ALICE);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ name: "alice-model", status: "already_exists" });
    const spare = await s.post("/api/v1/models", { name: "alice-spare" }, ALICE);
    expect(spare.status).toBe(201);
    expect(spare.json).toMatchObject({ name: "alice-spare", status: "created", lane_active: false });
    const listed = await s.get("/api/v1/models", ALICE);
    expect(listed.json.models.map((m: { name: string }) => m.name)).toEqual(["alice-model", "alice-spare"]);
    expect(listed.json.models[0]).toHaveProperty("lane_note");
    const archived = await s.post(`/api/v1/models/${spare.json.id}/archive`, undefined, ALICE);
    expect(archived.status).toBe(200);
    expect(archived.json).toMatchObject({ id: spare.json.id, archived: true });
    expect((await s.get("/api/v1/models", ALICE)).json.models).toHaveLength(1);
  });

  it("gives the Model table's texts: unknown name, another agent's model", async () => {
    expect(refusal(await s.post("/api/v1/models/ghost/archive", undefined, ALICE))).toEqual({
      status: 404,
      code: "model_name_unknown",
      message: "No model 'ghost'. Create it first with create_model.",
    });
    const bobs = await s.post("/api/v1/models", { name: "bob-model" }, BOB);
    expect(refusal(await s.post(`/api/v1/models/${bobs.json.id}/archive`, undefined, ALICE))).toEqual({
      status: 404,
      code: "model_not_found",
      message: "Model not found",
    });
    expect(refusal(await s.post("/api/v1/models", { name: "bob-model" }, ALICE))).toMatchObject({ status: 409, code: "model_name_taken" });
  });

  it("validates the body with a located 422", async () => {
    const a = await s.post("/api/v1/models", { label: "x" }, ALICE);
    expect(a.status).toBe(422);
    expect(a.json.detail).toMatchObject({ code: "validation_error", loc: ["body", "name"] });
  });
});

describe("tournament submit v2 over HTTP (Tournament submit table)", () => {
  it("accepts the round's instruments with 201 and replaces inside the window", async () => {
    const first = await submit(full(0.4));
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ exped, model: "alice-model", n_predictions: ids.length, replaced: false, revision: 1 });
    const second = await submit(ids.map((instrument_id) => ({ instrument_id, targets: { target_everest: 0.6 } })));
    expect(second.status).toBe(201);
    expect(second.json).toMatchObject({ submission_id: first.json.submission_id, replaced: true, revision: 2 });
  });

  it("refuses duplicates, strangers and gaps with 400 and the exact texts", async () => {
    const dup = [...full(), { instrument_id: ids[0], prediction: 0.1 }, { instrument_id: ids[1], prediction: 0.1 }];
    expect(refusal(await submit(dup))).toEqual({
      status: 400,
      code: "duplicate_instruments",
      message: "Duplicate instrument_id values in predictions (2 duplicates).",
    });
    expect(refusal(await submit([...full(), { instrument_id: "ffffffffffffffff", prediction: 0.5 }]))).toEqual({
      status: 400,
      code: "unknown_instruments",
      message: "Submission contains 1 instrument_id values not in the current round.",
    });
    expect(refusal(await submit(full().slice(3)))).toEqual({
      status: 400,
      code: "missing_instruments",
      message: "Missing predictions for 3 instruments.",
    });
  });

  it("refuses out-of-range values naming the target, with the entry's location", async () => {
    const entries = full();
    entries[5] = { instrument_id: ids[5], prediction: 1.5 };
    const a = await submit(entries);
    expect(refusal(a)).toEqual({
      status: 422,
      code: "prediction_out_of_range",
      message: "Target 'target_everest': prediction 1.5 is outside the allowed range [0, 1].",
    });
    expect(a.json.detail.loc).toEqual(["body", "predictions", 5, "prediction"]);
  });

  it("reads 'NaN', 'Infinity', '-Infinity' and null as non-finite, refused with the spec's text", async () => {
    for (const bad of ["NaN", "Infinity", "-Infinity", null]) {
      const entries = full();
      entries[2] = { instrument_id: ids[2], prediction: bad };
      const a = await submit(entries);
      expect(refusal(a), String(bad)).toEqual({
        status: 422,
        code: "prediction_not_finite",
        message: "prediction must be a finite number (no NaN or Infinity)",
      });
      expect(a.json.detail.loc).toEqual(["body", "predictions", 2, "prediction"]);
    }
    const viaTargets = ids.map((instrument_id) => ({ instrument_id, targets: { target_everest: 0.5 } }));
    viaTargets[7] = { instrument_id: ids[7], targets: { target_everest: "NaN" as unknown as number } };
    expect((await submit(viaTargets)).json.detail.loc).toEqual(["body", "predictions", 7, "targets", "target_everest"]);
  });

  it("answers a body that fails the schema with 422 and the first error's location", async () => {
    const entries: unknown[] = full();
    entries[3] = { instrument_id: ids[3], prediction: "high" };
    const a = await submit(entries);
    expect(a.status).toBe(422);
    expect(a.json.detail).toMatchObject({ code: "validation_error", loc: ["body", "predictions", 3, "prediction"] });
    expect(a.json.detail.message).toMatch(/^predictions\[3\]\.prediction: /);
    const noModel = await s.post("/api/v1/futures/submit/v2", { exped, predictions: full() }, ALICE);
    expect(noModel.json.detail.loc).toEqual(["body", "model_id"]);
    const notJson = await s.call("POST", "/api/v1/futures/submit/v2", { key: ALICE, raw: "{not json", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(422);
    expect(notJson.json.detail.loc).toEqual(["body"]);
  });

  it("refuses an unknown round and unknown models with 404", async () => {
    expect(refusal(await submit(full(), { exped: "exped_9999" }))).toEqual({ status: 404, code: "round_not_found", message: "Round not found" });
    expect(refusal(await submit(full(), { model_id: "ghost" }))).toMatchObject({
      status: 404,
      message: "No model 'ghost'. Create it first with create_model.",
    });
    expect(refusal(await submit(full(), { model_id: "mdl_0000000000000000" }))).toMatchObject({ status: 404, message: "Model not found" });
  });
});

describe("data downloads over HTTP (Data download table)", () => {
  it("serves parquet splits with the index id and the benchmark file's name", async () => {
    const live = await s.get("/api/v1/futures/data/live", ALICE);
    expect(live.status).toBe(200);
    expect(live.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(live.headers.get("content-disposition")).toBe('attachment; filename="bc_live.parquet"');
    expect([...readFrameParquet(live.bytes).ids].sort()).toEqual([...ids].sort());
    for (const split of ["train", "validation", "live"]) {
      const b = await s.get(`/api/v1/futures/data/${split}_benchmark_models`, ALICE);
      expect(b.status).toBe(200);
      expect(b.headers.get("content-disposition")).toBe(`attachment; filename="bc_${split}_benchmark_models.parquet"`);
      expect(Object.keys(readFrameParquet(b.bytes).columns)).toEqual(["v1_designated"]);
    }
  });

  it("refuses an unknown split with 400", async () => {
    expect(refusal(await s.get("/api/v1/futures/data/test", ALICE))).toEqual({ status: 400, code: "invalid_split", message: "Invalid split: test" });
    expect(refusal(await s.get("/api/v1/futures/data/test_benchmark_models", ALICE))).toMatchObject({
      status: 400,
      message: "Invalid split: test",
    });
  });
});

describe("after the window closes", () => {
  it("keeps the recorded entry final (409), refuses a late first entry, and withholds live (404)", async () => {
    const closed = await s.advance({ to: "next_phase" });
    expect(closed.json.transitions).toEqual([{ kind: "close", exped, t: expect.any(String) }]);
    expect(refusal(await submit(full()))).toEqual({
      status: 409,
      code: "submission_final",
      message: "Submission already exists for this model and exped.",
    });
    await s.post("/api/v1/models", { name: "alice-late" }, ALICE);
    expect(refusal(await submit(full(), { model_id: "alice-late" }))).toMatchObject({ status: 409, code: "submission_window_closed" });
    for (const path of ["/api/v1/futures/data/live", "/api/v1/futures/data/live_benchmark_models"]) {
      expect(refusal(await s.get(path, ALICE))).toEqual({ status: 404, code: "dataset_not_found", message: "Dataset not found: futures/live" });
    }
    expect(refusal(await s.get("/api/v1/futures/rounds/current/instruments", ALICE))).toMatchObject({ status: 404, code: "no_active_round" });
    expect((await s.get("/api/v1/rounds/current", ALICE)).json).toMatchObject({ exped, submission_window: "closed" });
  });
});

describe("before the first round opens", () => {
  it("answers rounds/current with 404 and lists the schedule", async () => {
    const early = await testServer({ calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1, open_time: "08:00" } });
    expect(refusal(await early.get("/api/v1/rounds/current", ALICE))).toEqual({ status: 404, code: "no_active_round", message: "No active round" });
    const schedule = await early.get("/api/v1/schedule", ALICE);
    expect(schedule.json.tournament).toBe("futures");
    expect(schedule.json.rounds.map((r: { status: string }) => r.status)).toEqual(["scheduled", "scheduled", "scheduled"]);
  });
});
