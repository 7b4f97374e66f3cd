import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { getStarted } from "../../../src/service/overview/status.js";
import { authenticate } from "../../../src/service/kernel/auth.js";
import { predictPickles } from "../../helpers/predict-pickles.js";
import { requires } from "../../helpers/requires.js";
import { refused } from "../../helpers/refusal.js";
import { ALICE, BOB, EVE, SECOND, laneHarness, sha256 } from "./lane-harness.js";

let pickle: (name: string) => Uint8Array;
const makePickles = async () => {
  pickle = await predictPickles();
};

const sample = readFileSync(new URL("../../../data/samples/predict.pkl", import.meta.url));

describe("create_model on a tournament", () => {
  it("turns auto-submit on; with no file the lane is inactive and says why", async () => {
    const { model } = await laneHarness();
    expect(model).toMatchObject({ auto_submit: true, lane_active: false });
    expect(model.lane_note).toBe("No model file uploaded: upload one with upload_model (or submit each round with submit v2).");
  });
});

requires("python").describe("upload_model: the structural gate", () => {
  beforeAll(makePickles);

  it("refuses with the catalogue's model-file texts before accepting anything", async () => {
    const h = await laneHarness({ auto_submit: { model_file: { max_bytes: 2000 } } });
    expect(await refused(h.upload(sample, { python_version: "3.9" }))).toEqual({
      status: 400,
      code: "python_version_unsupported",
      message: "python_version 3.9 is not accepted; accepted versions: 3.11, 3.12, 3.13.",
    });
    expect(await refused(h.upload(sample, { python_version: "three" }))).toMatchObject({ status: 400, code: "python_version_invalid" });
    expect(await refused(h.upload(sample, { sha256: "0".repeat(64) }))).toMatchObject({ status: 400, code: "model_pkl_sha256_mismatch" });
    expect(await refused(h.upload(sample, { sha256: "XYZ" }))).toMatchObject({ status: 400, code: "model_pkl_sha256_invalid" });
    expect(await refused(h.service.uploadModel(ALICE, { model_id: "alice-model", file: { filename: "predict.joblib", bytes: sample } }))).toEqual({
      status: 400,
      code: "model_pkl_not_pkl",
      message: "The model file must be a .pkl file.",
    });
    expect(await refused(h.upload(new Uint8Array(2001)))).toEqual({
      status: 413,
      code: "model_file_too_large",
      message: "Model file too large: the limit is 2000 bytes.",
    });
    expect(await refused(h.upload(pickle("not_callable")))).toMatchObject({ status: 400, code: "model_shape_refused" });
    expect(await refused(h.upload(sample, {}, BOB))).toMatchObject({ status: 404, code: "model_name_unknown" });
    expect(await refused(h.upload(sample, {}, EVE))).toMatchObject({ status: 403, code: "scope_restricted" });
    expect(await refused(h.status())).toEqual({
      status: 404,
      code: "model_upload_not_found",
      message: "No model file has been uploaded for model 'alice-model'. Upload one with upload_model.",
    });
    expect(h.logged("model_upload.pending")).toEqual([]);
  });
});

requires("python").describe("upload_model: validation on simulated time", () => {
  beforeAll(makePickles);

  it("moves pending → validating (1 s) → validated (validation_seconds), and the lane becomes active", async () => {
    const h = await laneHarness();
    const t0 = h.clock.now();
    const accepted = await h.upload(sample, { python_version: "3.11", sha256: sha256(sample) });
    expect(accepted).toMatchObject({
      status: "pending",
      model: "alice-model",
      sha256: sha256(sample),
      python_version: "3.11",
      n_bytes: sample.length,
      validated_at: null,
      error: null,
      auto_submit: true,
      lane_active: false,
      last_auto_run: null,
    });
    expect(Date.parse(accepted.validating_at) - t0).toBe(1 * SECOND);
    expect(Date.parse(accepted.validates_at) - t0).toBe(60 * SECOND);
    expect(accepted.lane_note).toMatch(/^Model file mup_[0-9a-f]{16} is pending: the lane runs it once it has validated\.$/);
    await h.at(t0 + 999);
    expect((await h.status()).status).toBe("pending");
    await h.at(t0 + SECOND);
    expect((await h.status()).status).toBe("validating");
    await h.at(t0 + 60 * SECOND - 1);
    expect((await h.status()).status).toBe("validating");
    await h.at(t0 + 60 * SECOND);
    const done = await h.status();
    expect(done).toMatchObject({ status: "validated", validated_at: new Date(t0 + 60 * SECOND).toISOString(), lane_active: true });
    expect(done.lane_note).toMatch(/^Active: the lane runs model file mup_\w+ 300 s after each round opens/);
    expect(getStarted(h.ctx, authenticate(h.ctx, ALICE)).auto_run).toBe(true);
    expect(getStarted(h.ctx, authenticate(h.ctx, BOB)).auto_run).toBe(false);
    expect(h.logged("model_upload.pending", "model_upload.validating", "model_upload.validated").map((e) => [e.type, e.t - t0])).toEqual([
      ["model_upload.pending", 0],
      ["model_upload.validating", SECOND],
      ["model_upload.validated", 60 * SECOND],
    ]);
  });

  it("fails a file whose sandbox predict answers wrongly, saying what was wrong", async () => {
    const cases: [string, string][] = [
      ["out_of_range", "predict returned 2 for id '"],
      ["raises", "predict raised KeyError: 'feature_that_does_not_exist'"],
      ["two_columns", "predict returned a DataFrame with 2 columns, not one"],
      ["drops_first", "predict returned no prediction for 1 of 60 ids"],
    ];
    for (const [name, reason] of cases) {
      const h = await laneHarness({ auto_submit: { validation_seconds: 5 } });
      await h.upload(pickle(name));
      await h.at(h.clock.now() + 5 * SECOND);
      const failed = await h.status();
      expect(failed.status, name).toBe("error");
      expect(failed.error, name).toContain(reason);
      expect(failed.lane_active).toBe(false);
      expect(failed.lane_note).toContain(`failed validation: ${failed.error}. Upload a fixed file with upload_model.`);
      expect(h.logged("model_upload.error")).toMatchObject([{ payload: { error: failed.error } }]);
    }
  });

  it("lets a later upload replace the file: an unfinished validation is cancelled", async () => {
    const h = await laneHarness();
    const first = await h.upload(pickle("out_of_range"));
    await h.at(h.clock.now() + 2 * SECOND);
    const second = await h.upload(sample);
    expect(second.upload_id).not.toBe(first.upload_id);
    await h.at(h.clock.now() + 60 * SECOND);
    expect(await h.status()).toMatchObject({ upload_id: second.upload_id, status: "validated", lane_active: true });
    expect(h.logged("model_upload.replaced")).toMatchObject([{ payload: { upload_id: first.upload_id, was: "validating" } }]);
    expect(h.logged("model_upload.validated", "model_upload.error").map((e) => e.payload.upload_id)).toEqual([second.upload_id]);
  });
});

requires("python").describe("set_auto_submit", () => {
  beforeAll(makePickles);

  it("switches the lane off and on; the note says which stands in the way", async () => {
    const h = await laneHarness({ auto_submit: { validation_seconds: 5 } });
    const off = await h.service.setAutoSubmit(ALICE, { model_id: "alice-model", enabled: false });
    expect(off).toMatchObject({ auto_submit: false, lane_active: false });
    expect(off.lane_note).toBe(
      "No model file uploaded: upload one with upload_model (or submit each round with submit v2). Auto-submit is switched off: switch it on with set_auto_submit.",
    );
    await h.upload(sample);
    await h.at(h.clock.now() + 5 * SECOND);
    expect((await h.status()).lane_note).toMatch(/is validated\. Auto-submit is switched off/);
    const on = await h.service.setAutoSubmit(ALICE, { model_id: "alice-model", enabled: true });
    expect(on).toMatchObject({ auto_submit: true, lane_active: true });
    await h.service.setAutoSubmit(ALICE, { model_id: "alice-model", enabled: true });
    expect(h.logged("model.auto_submit").map((e) => e.payload.enabled)).toEqual([false, true]);
    expect(await refused(h.service.setAutoSubmit(BOB, { model_id: h.model.id, enabled: false }))).toMatchObject({ status: 404, code: "model_not_found" });
  });
});
