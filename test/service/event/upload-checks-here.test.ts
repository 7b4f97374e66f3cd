import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../../sim/agents/event-upload.js";
import { CHECK_HERE_MAX_BYTES, checkHere, ScannedModelFiles } from "../../../src/service/event/upload-checks-here.js";
import { checkUploadFiles, type CheckedFiles, type FileRules, type UploadFiles } from "../../../src/service/event/upload-files.js";

const rules: FileRules = {
  model_file: { max_bytes: 10 * 1024 * 1024, python_versions: ["3.12"], enforce_python_version: true },
  predictions: { max_bytes: 64 * 1024 * 1024, max_rows: 2_000_000, max_uncompressed_bytes: 256 * 1024 * 1024, max_columns: 64 },
};

function upload(rows: number, model: Uint8Array = samplePkl, filename = "p.csv"): UploadFiles {
  const ids = Array.from({ length: rows }, (_, i) => `h${i.toString(16).padStart(15, "0")}`);
  return {
    model_pkl: { filename: "predict.pkl", bytes: model },
    predictions: { filename, bytes: predictionsCsv(ids, Float64Array.from(ids, (_, i) => (i + 0.5) / rows)) },
    model_pkl_sha256: createHash("sha256").update(model).digest("hex"),
    model_pkl_python_version: "3.12",
  };
}

/** What the pool answers for these files (the same checks, on this thread here). */
const pooled = (files: UploadFiles): CheckedFiles => checkUploadFiles(files, rules);

describe("upload checks made on the thread that answers requests", () => {
  it("leaves an upload whose model file was never scanned to the pool, and checks the next with that file here, as the pool would", () => {
    const scanned = new ScannedModelFiles();
    expect(checkHere(upload(200), rules, scanned)).toBeNull();
    scanned.keep(pooled(upload(200)));
    const next = upload(300);
    expect(checkHere(next, rules, scanned)).toEqual(pooled(next));
  });

  it("does not scan a known model file again: its kept shape stands for the scan", () => {
    // A pickle the scan refuses (it is not one), kept as if the pool had passed it: checked here, it passes.
    const notPickle = new TextEncoder().encode("not a pickle at all");
    const files = upload(10, notPickle);
    expect(pooled(files).model_file.ok).toBe(false);
    const scanned = new ScannedModelFiles();
    const shape = { kind: "callable" as const, via: "__main__.predict" };
    scanned.keep({ model_file: { ok: true, value: { sha256: files.model_pkl_sha256 as string, python_version: "3.12", python_version_accepted: true, shape } }, predictions: null });
    expect(checkHere(files, rules, scanned)?.model_file).toEqual({ ok: true, value: { sha256: files.model_pkl_sha256, python_version: "3.12", python_version_accepted: true, shape } });
  });

  it("still refuses a known digest declared for other bytes, and the rules in force (Python version), before any scan", () => {
    const scanned = new ScannedModelFiles();
    scanned.keep(pooled(upload(10)));
    const other = { ...upload(10, Buffer.concat([samplePkl, Buffer.from([0])])), model_pkl_sha256: samplePklSha256 };
    expect(checkHere(other, rules, scanned)).toEqual(pooled(other));
    expect(checkHere(other, rules, scanned)?.model_file).toMatchObject({ ok: false, refusal: { code: "model_pkl_sha256_mismatch" } });
    const old = { ...upload(10), model_pkl_python_version: "3.9" };
    expect(checkHere(old, rules, scanned)?.model_file).toMatchObject({ ok: false, refusal: { code: "python_version_unsupported" } });
  });

  it("leaves to the pool files past the size bound, a parquet file, and a model file without a declared digest", () => {
    const scanned = new ScannedModelFiles();
    scanned.keep(pooled(upload(10)));
    const large = upload(2000);
    expect(large.predictions!.bytes.byteLength + samplePkl.byteLength).toBeGreaterThan(CHECK_HERE_MAX_BYTES);
    expect(checkHere(large, rules, scanned)).toBeNull();
    expect(checkHere(upload(10, samplePkl, "p.parquet"), rules, scanned)).toBeNull();
    expect(checkHere({ ...upload(10), model_pkl_sha256: null }, rules, scanned)).toBeNull();
  });

  it("remembers the 256 model files kept last, forgetting the oldest first", () => {
    const scanned = new ScannedModelFiles();
    const shape = { kind: "callable" as const, via: "__main__.predict" };
    const kept = (i: number): CheckedFiles => ({
      model_file: { ok: true, value: { sha256: String(i).padStart(64, "0"), python_version: "3.12", python_version_accepted: true, shape } },
      predictions: null,
    });
    for (let i = 0; i <= 256; i++) scanned.keep(kept(i));
    expect(scanned.get(String(0).padStart(64, "0"))).toBeUndefined();
    expect(scanned.get(String(1).padStart(64, "0"))).toEqual(shape);
    expect(scanned.get(String(256).padStart(64, "0"))).toEqual(shape);
  });
});
