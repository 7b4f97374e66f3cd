import { readdirSync, watch } from "node:fs";
import { describe, expect, it } from "vitest";
import { processTempDir } from "../../src/data/temp-roots.js";
import { whenChanged } from "../helpers/when-changed.js";
import { refusal, type TestServer } from "./server.js";
import { ANN, PKL, PKL_SHA, PRACTICE_BATCH, ROUND_BATCH, csv, eventServer, newModel, postForm, splitIds, spread, toPhase } from "./event-server.js";

interface Item {
  model_id: string;
  predictions?: string;
  model_pkl?: string;
  model_pkl_sha256?: string;
  model_pkl_python_version?: string;
  idempotency_key?: string;
}

/** A batch form: the manifest plus named file parts (one shared model.pkl part by default). */
function batchForm(items: Item[], files: Record<string, { name: string; bytes: Uint8Array }>): FormData {
  const form = new FormData();
  form.set("manifest", JSON.stringify({ items }));
  form.set("pkl", new Blob([PKL]), "predict.pkl");
  for (const [part, f] of Object.entries(files)) form.set(part, new Blob([f.bytes as Uint8Array<ArrayBuffer>]), f.name);
  return form;
}

const item = (model_id: string, predictions: string, extra: Partial<Item> = {}): Item => ({
  model_id,
  predictions,
  model_pkl: "pkl",
  model_pkl_sha256: PKL_SHA,
  model_pkl_python_version: "3.12",
  ...extra,
});

async function roundOne(): Promise<{ s: TestServer; live: string[] }> {
  const s = await eventServer();
  await toPhase(s, "round_1");
  return { s, live: await splitIds(s, ANN, "live") };
}

const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(12, "0")}`);

describe("batch uploads", () => {
  it("reads each item's own file when its files wait on disk (past the 1 MiB spool threshold), and leaves no spool file behind", async () => {
    // Spools are made in this process's `uploads` directory.
    const uploads = processTempDir("uploads");
    const made: string[] = [];
    const watcher = watch(uploads, (_, name) => void (name && made.push(name)));
    try {
      const s = await eventServer();
      const [m1, m2] = [await newModel(s, ANN, "m1"), await newModel(s, ANN, "m2")];
      const [a, b] = [ids(50_000, "a"), ids(50_001, "b")];
      const files = { a: { name: "a.csv", bytes: csv(a, spread(a)) }, b: { name: "b.csv", bytes: csv(b, spread(b)) } };
      expect(files.a.bytes.length).toBeGreaterThan(1024 * 1024);
      const res = await postForm(s, PRACTICE_BATCH, ANN, batchForm([item(m1, "a"), item(m2, "b")], files));
      expect(res.status).toBe(202);
      expect(res.json.items.map((i: { run: { n_rows: number } }) => i.run.n_rows)).toEqual([50_000, 50_001]);
      // The spool is removed once the answer is sent: wait until it is gone.
      const spools = () => readdirSync(uploads).filter((name) => name.startsWith("upload-"));
      await whenChanged(uploads, () => spools().length === 0);
      expect(made.some((name) => name.startsWith("upload-"))).toBe(true);
    } finally {
      watcher.close();
    }
  });

  it("refuses 0 and 26 items with the spec's texts", async () => {
    const { s, live } = await roundOne();
    const m = await newModel(s, ANN, "m");
    const none = await postForm(s, ROUND_BATCH, ANN, batchForm([], {}));
    expect(refusal(none)).toEqual({ status: 400, code: "batch_empty", message: "A batch must declare at least one item." });
    const files = { p: { name: "p.csv", bytes: csv(live, spread(live)) } };
    const many = await postForm(s, PRACTICE_BATCH, ANN, batchForm(Array(26).fill(item(m, "p")), files));
    expect(refusal(many)).toEqual({ status: 400, code: "batch_too_large", message: "A batch may declare at most 25 items (26 given)." });
  });

  it("answers 207 with per-item outcomes on a partial failure, and resumes by idempotency key without spending twice (202)", async () => {
    const { s, live } = await roundOne();
    const [m1, m2] = [await newModel(s, ANN, "m1"), await newModel(s, ANN, "m2")];
    const files = { a: { name: "a.csv", bytes: csv(live, spread(live, 1)) }, b: { name: "b.csv", bytes: csv(live, spread(live, 7)) } };
    const good = item(m1, "a", { idempotency_key: "k1" });
    const badSha = item(m2, "b", { idempotency_key: "k2", model_pkl_sha256: "nothex" });
    const first = await postForm(s, ROUND_BATCH, ANN, batchForm([good, badSha], files));
    expect(first.status).toBe(207);
    expect(first.json).toMatchObject({ all_succeeded: false, uploads_remaining: 3 });
    expect(first.json.items).toEqual([
      expect.objectContaining({ index: 0, idempotency_key: "k1", outcome: "accepted", error: null, run: expect.objectContaining({ lane: "round" }) }),
      {
        index: 1,
        idempotency_key: "k2",
        outcome: "refused",
        run: null,
        error: { status: 400, code: "model_pkl_sha256_invalid", message: "model_pkl_sha256 must be a 64-character hex SHA-256 digest." },
      },
    ]);
    const resumed = await postForm(s, ROUND_BATCH, ANN, batchForm([good, { ...badSha, model_pkl_sha256: PKL_SHA }], files));
    expect(resumed.status).toBe(202);
    expect(resumed.json.all_succeeded).toBe(true);
    expect(resumed.json.items.map((i: { outcome: string }) => i.outcome)).toEqual(["replayed", "accepted"]);
    expect(resumed.json.items[0].run.upload_id).toBe(first.json.items[0].run.upload_id);
    expect(resumed.json.uploads_remaining).toBe(2);
  });

  it("passes an item without a model part to the service (its text), and refuses a manifest that fails its schema or names a missing part (422 + loc)", async () => {
    const { s, live } = await roundOne();
    const m = await newModel(s, ANN, "m");
    const files = { p: { name: "p.csv", bytes: csv(live, spread(live)) } };
    const noPkl = await postForm(s, PRACTICE_BATCH, ANN, batchForm([{ model_id: m, predictions: "p" }], files));
    expect(noPkl.status).toBe(207);
    expect(noPkl.json.items[0].error).toMatchObject({ status: 400, message: "A model .pkl file is required for hackathon submissions." });

    const noModel = await postForm(s, ROUND_BATCH, ANN, batchForm([{ predictions: "p" } as Item], files));
    expect(noModel.status).toBe(422);
    expect(noModel.json.detail.loc).toEqual(["body", "manifest", "items", 0, "model_id"]);
    const missing = await postForm(s, ROUND_BATCH, ANN, batchForm([item(m, "nowhere")], files));
    expect(refusal(missing)).toEqual({ status: 422, code: "validation_error", message: "manifest.items[0].predictions: no file part named 'nowhere' was sent" });
    expect(missing.json.detail.loc).toEqual(["body", "manifest", "items", 0, "predictions"]);
    const form = batchForm([], {});
    form.set("manifest", "{not json");
    const notJson = await postForm(s, ROUND_BATCH, ANN, form);
    expect(notJson.status).toBe(422);
    expect(notJson.json.detail.loc).toEqual(["body", "manifest"]);
  });

  it("outside a round, fenced items carry retry_after_seconds and the 207 a Retry-After, as the single upload's 409 does", async () => {
    const s = await eventServer();
    const validation = await splitIds(s, ANN, "validation");
    const m = await newModel(s, ANN, "m");
    const files = { p: { name: "p.csv", bytes: csv(validation, spread(validation)) } };
    // Build phase: 10 minutes until round_1 opens.
    const fenced = await postForm(s, ROUND_BATCH, ANN, batchForm([item(m, "p")], files));
    expect(fenced.status).toBe(207);
    expect(fenced.headers.get("retry-after")).toBe("600");
    expect(fenced.json).toMatchObject({ all_succeeded: false, retry_after_seconds: 600 });
    expect(fenced.json.items[0].error).toEqual({
      status: 409,
      code: "cadence_not_open",
      message: "No paid round is fully open for intake.",
      retry_after_seconds: 600,
    });
    const practice = await postForm(s, PRACTICE_BATCH, ANN, batchForm([item(m, "p", { model_pkl_sha256: "nothex" })], files));
    expect(practice.status).toBe(207);
    expect(practice.headers.get("retry-after")).toBeNull();
    expect(practice.json.retry_after_seconds).toBeNull();
    expect(practice.json.items[0].error).not.toHaveProperty("retry_after_seconds");
  });
});
