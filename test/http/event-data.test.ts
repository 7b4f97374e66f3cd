import { afterAll, describe, expect, it } from "vitest";
import { readFrameParquet } from "../../src/data/parquet.js";
import { TARGET } from "../../src/data/schema.js";
import { createApp } from "../../src/http/app.js";
import { listen, type Listening } from "../../src/http/listen.js";
import { harness } from "../helpers/service-harness.js";
import { smallEvent } from "../helpers/small-event.js";
import { refusal } from "./server.js";
import { ANN, PIA, PRACTICE_UPLOAD, csvUpload, eventServer, splitIds, toPhase } from "./event-server.js";

const listening: Listening[] = [];
afterAll(async () => {
  await Promise.all(listening.splice(0).map((l) => l.close()));
});

describe("event data downloads", () => {
  it("serves train and validation from the start (validation's target blanked), live only while a round is open", async () => {
    const s = await eventServer();
    const train = readFrameParquet((await s.get("/api/v1/futures/data/train", ANN)).bytes);
    expect(train.columns[TARGET].some((v) => Number.isFinite(v))).toBe(true);
    for (const key of [ANN, PIA]) {
      const validation = readFrameParquet((await s.get("/api/v1/futures/data/validation", key)).bytes);
      expect(validation.ids.length).toBeGreaterThan(0);
      expect(validation.columns[TARGET].every((v) => Number.isNaN(v))).toBe(true);
    }
    // The tournament key on the event keeps the tournament's rules: the graded target.
    const tom = readFrameParquet((await s.get("/api/v1/futures/data/validation", "key-tom-00000004")).bytes);
    expect(tom.columns[TARGET].some((v) => Number.isFinite(v))).toBe(true);

    const fenced = await s.get("/api/v1/futures/data/live", ANN);
    expect(refusal(fenced)).toEqual({ status: 409, code: "cadence_not_open", message: "No paid round is fully open for intake." });
    expect(fenced.headers.get("retry-after")).toBe("600");
    expect(fenced.json.detail).toMatchObject({ retry_after_seconds: 600, intake_fenced: true });

    await toPhase(s, "round_1");
    const live = await splitIds(s, ANN, "live");
    const instruments = await s.get("/api/v1/futures/rounds/current/instruments", ANN);
    expect([...live].sort()).toEqual([...instruments.json.instrument_ids].sort());
    await toPhase(s, "round_1_boundary");
    expect((await s.get("/api/v1/futures/data/live", ANN)).status).toBe(409);
    expect(refusal(await s.get("/api/v1/futures/data/test", ANN))).toEqual({ status: 400, code: "invalid_split", message: "Invalid split: test" });
    // Event keys get only the train benchmark file.
    expect((await s.get("/api/v1/futures/data/train_benchmark_models", ANN)).status).toBe(200);
    expect(refusal(await s.get("/api/v1/futures/data/validation_benchmark_models", ANN))).toMatchObject({ status: 404, code: "benchmark_withheld" });
  });

  it("refuses downloads and uploads before the event with 403 Your hackathon has not started yet", async () => {
    const h = harness(smallEvent(), 60_000);
    const server = await listen(createApp(h.service, { log: () => {} }), 0, "127.0.0.1");
    listening.push(server);
    const get = async (path: string) => {
      const r = await fetch(server.url + path, { headers: { "X-API-Key": ANN } });
      return { status: r.status, json: await r.json() };
    };
    for (const split of ["train", "validation", "live"]) {
      expect((await get(`/api/v1/futures/data/${split}`)).json.detail, split).toEqual({ code: "hackathon_not_started", message: "Your hackathon has not started yet" });
    }
    expect((await get("/api/v1/status")).json).toMatchObject({ event_status: "upcoming" });
    const model = await fetch(`${server.url}/api/v1/models`, {
      method: "POST",
      headers: { "X-API-Key": ANN, "content-type": "application/json" },
      body: JSON.stringify({ name: "early" }),
    });
    const { name } = (await model.json()) as { name: string };
    const up = await fetch(server.url + PRACTICE_UPLOAD, { method: "POST", headers: { "X-API-Key": ANN }, body: csvUpload(name, ["a"], [0.5]) });
    expect(up.status).toBe(403);
    expect(((await up.json()) as { detail: unknown }).detail).toEqual({ code: "hackathon_not_started", message: "Your hackathon has not started yet" });
  });
});
