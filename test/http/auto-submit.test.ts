import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { BasecampClient } from "../../src/sdk/client.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { ALICE, BOB, refusal, testServer, type TestServer } from "./server.js";

const sample = readFileSync(new URL("../../data/samples/predict.pkl", import.meta.url));

/** The small tournament with a 4000-byte model-file limit and 5 s validations; round 1 is open. */
let s: TestServer;
beforeAll(async () => {
  s = await testServer({ auto_submit: { model_file: { max_bytes: 4000 }, validation_seconds: 5 } });
  expect((await s.post("/api/v1/models", { name: "alice-model" }, ALICE)).status).toBe(201);
});

function form(bytes: Uint8Array, fields: Record<string, string> = {}, filename = "predict.pkl"): FormData {
  const f = new FormData();
  f.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const upload = (f: FormData, key = ALICE, model = "alice-model") => s.call("POST", `/api/v1/models/${model}/upload`, { key, raw: f });

describe("the auto-submit lane over HTTP", () => {
  requires("python").it("uploads with 202 pending, validates on the organiser's clock, and reports the lane on /models and /status", async () => {
    const accepted = await upload(form(sample, { python_version: "3.11" }));
    expect(accepted.status).toBe(202);
    expect(accepted.json).toMatchObject({ status: "pending", model: "alice-model", python_version: "3.11", n_bytes: sample.length, lane_active: false });
    expect((await s.get("/api/v1/models/alice-model/upload/status", ALICE)).json.status).toBe("pending");
    await s.advance({ seconds: 1 });
    expect((await s.get("/api/v1/models/alice-model/upload/status", ALICE)).json.status).toBe("validating");
    await s.advance({ seconds: 4 });
    const done = await s.get("/api/v1/models/alice-model/upload/status", ALICE);
    expect(done.json).toMatchObject({ status: "validated", upload_id: accepted.json.upload_id, lane_active: true, auto_submit: true });
    expect((await s.get("/api/v1/models", ALICE)).json.models[0]).toMatchObject({ lane_active: true, lane_note: done.json.lane_note });
    expect((await s.get("/api/v1/status", ALICE)).json.auto_run).toBe(true);

    const off = await s.post("/api/v1/models/alice-model/auto-submit", { enabled: false }, ALICE);
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ name: "alice-model", auto_submit: false, lane_active: false });
    expect((await s.get("/api/v1/status", ALICE)).json.auto_run).toBe(false);
    expect((await s.post("/api/v1/models/alice-model/auto-submit", { enabled: true }, ALICE)).json.lane_active).toBe(true);
  });

  it("refuses with the service's texts: size (413 naming the limit), version, name, missing part, body", async () => {
    expect(refusal(await upload(form(new Uint8Array(4001))))).toEqual({
      status: 413,
      code: "model_file_too_large",
      message: "Model file too large: the limit is 4000 bytes.",
    });
    // The body limit is the file limit plus 64 KiB for the form: a body over it never reaches the service.
    const bodyLimit = 4000 + 64 * 1024;
    expect(refusal(await upload(form(new Uint8Array(bodyLimit))))).toEqual({
      status: 413,
      code: "payload_too_large",
      message: `Payload too large: the limit is ${bodyLimit} bytes.`,
    });
    expect(refusal(await upload(form(sample, { python_version: "3.10" })))).toEqual({
      status: 400,
      code: "python_version_unsupported",
      message: "python_version 3.10 is not accepted; accepted versions: 3.11, 3.12, 3.13.",
    });
    expect(refusal(await upload(form(sample, {}, "predict.txt")))).toMatchObject({ status: 400, code: "model_pkl_not_pkl" });
    const noFile = new FormData();
    noFile.set("python_version", "3.11");
    const missing = await upload(noFile);
    expect(missing.status).toBe(422);
    expect(missing.json.detail).toMatchObject({ code: "validation_error", loc: ["body", "file"] });
    const badBody = await s.post("/api/v1/models/alice-model/auto-submit", { enabled: "yes" }, ALICE);
    expect(badBody.json.detail).toMatchObject({ code: "validation_error", loc: ["body", "enabled"] });
    expect(refusal(await upload(form(sample), BOB))).toMatchObject({ status: 404, code: "model_name_unknown" });
    expect(refusal(await s.get("/api/v1/models/ghost/upload/status", ALICE))).toMatchObject({ status: 404, code: "model_name_unknown" });
  });

  requires("python").it("serves the same operations to the SDK client", async () => {
    const bob = new BasecampClient({ baseUrl: s.url, apiKey: BOB });
    await bob.createModel({ name: "bob-model" });
    await expect(bob.getUploadStatus("bob-model")).rejects.toMatchObject({ status: 404, code: "model_upload_not_found" });
    const up = await bob.uploadModel({ model_id: "bob-model", file: { filename: "predict.pkl", bytes: sample }, python_version: "3.11" });
    expect(up).toMatchObject({ status: "pending", model: "bob-model" });
    await s.advance({ seconds: 5 });
    expect(await bob.getUploadStatus("bob-model")).toMatchObject({ status: "validated", lane_active: true });
    expect(await bob.setAutoSubmit({ model_id: "bob-model", enabled: false })).toMatchObject({ auto_submit: false, lane_active: false });
  });
});

requires("python").describe("a model file that poisons its own runner", () => {
  it("is one failed validation with a reason; every other call, and the next model's validation, are answered as before", async () => {
    const pickles = await predictPickles();
    const carol = await testServer({ auto_submit: { validation_seconds: 5 } });
    expect((await carol.post("/api/v1/models", { name: "alice-model" }, ALICE)).status).toBe(201);
    expect((await carol.post("/api/v1/models", { name: "bob-model" }, BOB)).status).toBe(201);
    const poisoned = form(pickles("poisons_json"), { python_version: "3.11" });
    expect((await carol.call("POST", "/api/v1/models/alice-model/upload", { key: ALICE, raw: poisoned })).status).toBe(202);
    await carol.advance({ seconds: 5 });
    const failed = (await carol.get("/api/v1/models/alice-model/upload/status", ALICE)).json;
    expect(failed.status).toBe("error");
    expect(failed.error).toBe("predict's answer cannot be read: its header is not JSON; the worker was stopped");
    for (const key of [ALICE, BOB]) expect((await carol.get("/api/v1/status", key)).status).toBe(200);
    const fine = form(sample, { python_version: "3.11" });
    expect((await carol.call("POST", "/api/v1/models/bob-model/upload", { key: BOB, raw: fine })).status).toBe(202);
    await carol.advance({ seconds: 5 });
    expect((await carol.get("/api/v1/models/bob-model/upload/status", BOB)).json.status).toBe("validated");
  });
});
