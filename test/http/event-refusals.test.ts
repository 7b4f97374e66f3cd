import { beforeAll, describe, expect, it } from "vitest";
import { refusal, type TestServer } from "./server.js";
import {
  ANN, BEN, PRACTICE_UPLOAD, ROUND_UPLOAD, csv, csvUpload, eventServer, fixturePickle, newModel, postForm, sha256, splitIds, spread, toPhase,
  uploadForm, uploadsRemaining,
} from "./event-server.js";

/** The spec's "Model file" and "Event submit" tables over multipart HTTP, on one server in round 1. */
let s: TestServer;
let live: string[];
let validation: string[];
beforeAll(async () => {
  s = await eventServer({ upload_pool: 3 });
  validation = await splitIds(s, ANN, "validation");
  await toPhase(s, "round_1");
  live = await splitIds(s, ANN, "live");
});

describe("Model file table (both lanes)", () => {
  const lanes = [ROUND_UPLOAD, PRACTICE_UPLOAD];

  it("400 A model .pkl file is required for hackathon submissions.", async () => {
    const m = await newModel(s, ANN, "no-pkl");
    for (const path of lanes) {
      const a = await postForm(s, path, ANN, csvUpload(m, live, spread(live), { model_pkl: null }));
      expect(refusal(a), path).toEqual({ status: 400, code: "model_pkl_required", message: "A model .pkl file is required for hackathon submissions." });
    }
  });

  it("400 The model file must be a .pkl file.", async () => {
    const m = await newModel(s, ANN, "joblib");
    for (const path of lanes) {
      const form = csvUpload(m, live, spread(live), { model_pkl: { name: "model.joblib", bytes: fixturePickle("cp_function_p5.pkl") } });
      expect(refusal(await postForm(s, path, ANN, form)), path).toEqual({ status: 400, code: "model_pkl_not_pkl", message: "The model file must be a .pkl file." });
    }
  });

  it("400 model_pkl_sha256 must be a 64-character hex SHA-256 digest. (missing, short, upper case)", async () => {
    const m = await newModel(s, ANN, "sha");
    for (const sha of [null, "abc123", "A".repeat(64)]) {
      const a = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, live, spread(live), { model_pkl_sha256: sha }));
      expect(refusal(a), String(sha)).toEqual({
        status: 400,
        code: "model_pkl_sha256_invalid",
        message: "model_pkl_sha256 must be a 64-character hex SHA-256 digest.",
      });
    }
    const wrong = "0".repeat(64);
    const a = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation), { model_pkl_sha256: wrong }));
    expect(refusal(a)).toMatchObject({ status: 400, code: "model_pkl_sha256_mismatch" });
    expect(a.json.detail.message).toContain(wrong);
  });

  it("400 python_version must be 'major.minor'", async () => {
    const m = await newModel(s, ANN, "py");
    for (const version of ["3", "three.twelve", "3.12.1"]) {
      const a = await postForm(s, ROUND_UPLOAD, ANN, csvUpload(m, live, spread(live), { model_pkl_python_version: version }));
      expect(refusal(a), version).toEqual({ status: 400, code: "python_version_invalid", message: "python_version must be 'major.minor'" });
    }
  });

  it("400 an unsupported model_pkl_python_version on both lanes, naming the deployment's accepted set", async () => {
    const m = await newModel(s, ANN, "py-unsupported");
    for (const path of lanes) {
      const a = await postForm(s, path, ANN, csvUpload(m, live, spread(live), { model_pkl_python_version: "3.9" }));
      expect(refusal(a), path).toEqual({
        status: 400,
        code: "python_version_unsupported",
        message: "python_version 3.9 is not accepted; accepted versions: 3.11, 3.12, 3.13.",
      });
    }
  });

  it("a deployment with event.model_file.enforce_python_version false accepts an unsupported version as declared", async () => {
    const lax = await eventServer({ model_file: { python_versions: ["3.12"], enforce_python_version: false } });
    const ids = await splitIds(lax, ANN, "validation");
    const m = await newModel(lax, ANN, "py-lax");
    const a = await postForm(lax, PRACTICE_UPLOAD, ANN, csvUpload(m, ids, spread(ids), { model_pkl_python_version: "3.9" }));
    expect(a.status).toBe(202);
  });

  it("400 one model shape: a dict or an estimator instance is refused, a cloudpickled function is taken", async () => {
    const m = await newModel(s, ANN, "shape");
    for (const file of ["pk_dict_model_p5.pkl", "cp_instance_p5.pkl"]) {
      const bytes = fixturePickle(file);
      const form = csvUpload(m, validation, spread(validation), { model_pkl: { name: file, bytes }, model_pkl_sha256: sha256(bytes) });
      expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, form)), file).toEqual({
        status: 400,
        code: "model_shape_refused",
        message: "Everesteer runs one model shape: a cloudpickled callable.",
      });
    }
    const fn = fixturePickle("cp_function_p5.pkl");
    const ok = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, validation, spread(validation, 3), { model_pkl: { name: "f.pkl", bytes: fn }, model_pkl_sha256: sha256(fn) }));
    expect(ok.status).toBe(202);
  });

  it("a missing predictions part is a 422 naming the field; a body that is not form data too", async () => {
    const m = await newModel(s, ANN, "no-predictions");
    const a = await postForm(s, PRACTICE_UPLOAD, ANN, uploadForm({ model_id: m }));
    expect(a.status).toBe(422);
    expect(a.json.detail.loc).toEqual(["body", "predictions"]);
    const json = await s.post(PRACTICE_UPLOAD, { model_id: m }, ANN);
    expect(refusal(json)).toEqual({ status: 422, code: "validation_error", message: "body: expected multipart/form-data" });
    const text = new FormData();
    text.set("model_id", m);
    text.set("model_pkl", "not a file");
    const b = await postForm(s, PRACTICE_UPLOAD, ANN, text);
    expect(b.status).toBe(422);
    expect(b.json.detail.loc).toEqual(["body", "model_pkl"]);
  });
});

describe("Event submit table", () => {
  it("409 These predictions are already filed in this event by your model '{name}'. (CSV, then the same predictions as parquet)", async () => {
    const { writeFrameParquet } = await import("../../src/data/parquet.js");
    const first = await newModel(s, ANN, "dedup-1");
    const second = await newModel(s, ANN, "dedup-2");
    const values = spread(validation, 7);
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(first, validation, values))).status).toBe(202);
    // The same content in another format and row order is the same predictions.
    const order = validation.map((_, i) => validation.length - 1 - i);
    const parquet = writeFrameParquet({
      ids: order.map((i) => validation[i]),
      exped: order.map(() => "era_001"),
      columns: { prediction: Float64Array.from(order.map((i) => values[i])) },
    });
    const a = await postForm(s, PRACTICE_UPLOAD, ANN, uploadForm({ model_id: second, predictions: { name: "p.parquet", bytes: parquet } }));
    expect(refusal(a)).toEqual({
      status: 409,
      code: "predictions_filed_by_you",
      message: `These predictions are already filed in this event by your model '${first}'.`,
    });
  });

  it("409 Identical predictions are already filed in this event by another participant. (predictions_already_filed, charges nothing)", async () => {
    const annModel = await newModel(s, ANN, "dup-ann");
    const benModel = await newModel(s, BEN, "dup-ben");
    const values = spread(live, 11);
    expect((await postForm(s, ROUND_UPLOAD, ANN, csvUpload(annModel, live, values))).status).toBe(202);
    const before = await uploadsRemaining(s, BEN);
    const a = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(benModel, live, values));
    expect(refusal(a)).toEqual({
      status: 409,
      code: "predictions_already_filed",
      message: "Identical predictions are already filed in this event by another participant.",
    });
    expect(await uploadsRemaining(s, BEN)).toBe(before);
  });

  it("409 A run for this model is already scoring a DIFFERENT predictions file", async () => {
    const m = await newModel(s, BEN, "busy");
    expect((await postForm(s, ROUND_UPLOAD, BEN, csvUpload(m, live, spread(live, 13)))).status).toBe(202);
    const a = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(m, live, spread(live, 17)));
    expect(refusal(a)).toEqual({
      status: 409,
      code: "run_scoring_different_file",
      message: "A run for this model is already scoring a DIFFERENT predictions file",
    });
  });

  it("409 Upload limit reached: {limit} uploads per agent, counted across all your models and every round.", async () => {
    // BEN has spent 1 of 3 above; practice uploads are free.
    const models = [await newModel(s, BEN, "pool-1"), await newModel(s, BEN, "pool-2"), await newModel(s, BEN, "pool-3")];
    const practice = await postForm(s, PRACTICE_UPLOAD, BEN, csvUpload(models[0], validation, spread(validation, 19)));
    expect(practice.json.uploads_remaining).toBe(2);
    const second = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(models[0], live, spread(live, 23)));
    expect(second.json.uploads_remaining).toBe(1);
    expect((await postForm(s, ROUND_UPLOAD, BEN, csvUpload(models[1], live, spread(live, 29)))).json.uploads_remaining).toBe(0);
    const a = await postForm(s, ROUND_UPLOAD, BEN, csvUpload(models[2], live, spread(live, 31)));
    expect(refusal(a)).toEqual({
      status: 409,
      code: "upload_limit_reached",
      message: "Upload limit reached: 3 uploads per agent, counted across all your models and every round.",
    });
    expect(a.json.detail.uploads_remaining).toBe(0);
    expect(await uploadsRemaining(s, BEN)).toBe(0);
  });

  it("the round lane needs an event key: a practice key gets 403 there and 202 on the practice board", async () => {
    const m = await newModel(s, "key-pia-00000003", "pia");
    const a = await postForm(s, ROUND_UPLOAD, "key-pia-00000003", csvUpload(m, live, spread(live, 37)));
    expect(refusal(a)).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(a.json.detail.message).toMatch(/ needs an event key\.$/);
    expect((await postForm(s, PRACTICE_UPLOAD, "key-pia-00000003", csvUpload(m, validation, spread(validation, 37)))).status).toBe(202);
  });

  it("401 for an unknown key; 404 for a private label (use the returned name); 400 for a predictions file of another type", async () => {
    expect(refusal(await postForm(s, ROUND_UPLOAD, "key-nobody", csvUpload("x", live, spread(live))))).toMatchObject({ status: 401, code: "invalid_api_key" });
    const name = await newModel(s, ANN, "my-label");
    expect(name).toMatch(/^participant_[0-9a-f]{10}$/);
    const a = await postForm(s, ROUND_UPLOAD, ANN, csvUpload("my-label", live, spread(live)));
    expect(refusal(a)).toEqual({ status: 404, code: "model_label_unknown", message: "No model is named 'my-label'" });
    const txt = uploadForm({ model_id: name, predictions: { name: "p.txt", bytes: csv(validation, spread(validation)) } });
    expect(refusal(await postForm(s, PRACTICE_UPLOAD, ANN, txt))).toEqual({
      status: 400,
      code: "predictions_file_type",
      message: "The predictions file must be a .csv or .parquet file ('p.txt' given).",
    });
  });
});
