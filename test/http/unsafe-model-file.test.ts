import { beforeAll, describe, expect, it } from "vitest";
import { ALICE, refusal, testServer, type TestServer } from "./server.js";
import {
  ANN, PRACTICE_BATCH, PRACTICE_UPLOAD, ROUND_UPLOAD, csv, csvUpload, eventServer, fixturePickle, newModel, postForm, sha256, splitIds, spread, toPhase,
} from "./event-server.js";

/** Every lane that takes a model file refuses a pickle that reaches os.system, naming it, and stores nothing. */
const HOSTILE = "unsafe_lambda_system_p5.pkl";
const bytes = fixturePickle(HOSTILE);
const UNSAFE = { status: 400, code: "model_file_unsafe", message: "The model file references os.system, which a model file may not use." };

describe("a model file that reaches os.system", () => {
  let s: TestServer;
  let live: string[];
  let m: string;
  beforeAll(async () => {
    s = await eventServer();
    await toPhase(s, "round_1");
    live = await splitIds(s, ANN, "live");
    m = await newModel(s, ANN, "hostile");
  });

  it("is refused on the round lane and the practice lane, charging nothing", async () => {
    for (const lane of [ROUND_UPLOAD, PRACTICE_UPLOAD]) {
      const form = csvUpload(m, live, spread(live), { model_pkl: { name: "predict.pkl", bytes }, model_pkl_sha256: sha256(bytes) });
      expect(refusal(await postForm(s, lane, ANN, form)), lane).toEqual(UNSAFE);
    }
    expect((await s.get("/api/v1/status", ANN)).json.uploads_remaining).toBe(4);
  });

  it("is refused as a batch item, the item's own outcome", async () => {
    const form = new FormData();
    form.set("manifest", JSON.stringify({ items: [{ model_id: m, predictions: "p", model_pkl: "pkl", model_pkl_sha256: sha256(bytes), model_pkl_python_version: "3.12" }] }));
    form.set("pkl", new Blob([bytes as Uint8Array<ArrayBuffer>]), "predict.pkl");
    form.set("p", new Blob([csv(live, spread(live, 5)) as Uint8Array<ArrayBuffer>]), "p.csv");
    const a = await postForm(s, PRACTICE_BATCH, ANN, form);
    expect(a.status).toBe(207);
    expect(a.json.items[0]).toMatchObject({ outcome: "refused", error: UNSAFE });
  });
});

describe("upload_model (the tournament's auto-submit lane)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await testServer();
    expect((await s.post("/api/v1/models", { name: "alice-model" }, ALICE)).status).toBe(201);
  });

  it("refuses each hostile fixture, naming what it references, and keeps no file", async () => {
    for (const [file, reference] of [
      [HOSTILE, "os.system"],
      ["unsafe_partial_system_p5.pkl", "posix.system"],
      ["unsafe_getattr_eval_p5.pkl", "builtins.eval"],
    ] as const) {
      const form = new FormData();
      form.set("file", new Blob([fixturePickle(file) as Uint8Array<ArrayBuffer>]), "predict.pkl");
      const a = await s.call("POST", "/api/v1/models/alice-model/upload", { key: ALICE, raw: form });
      expect(refusal(a), file).toEqual({ ...UNSAFE, message: `The model file references ${reference}, which a model file may not use.` });
    }
    expect((await s.get("/api/v1/models/alice-model/upload/status", ALICE)).status).toBe(404);
  });
});
