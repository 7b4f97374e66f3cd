import { readdirSync, readFileSync } from "node:fs";
import { getPriority } from "node:os";
import { describe, expect, it } from "vitest";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../../sim/agents/event-upload.js";
import { prepareExped, type PreparedExped } from "../../../src/scoring/exped.js";
import { UploadCheckPool } from "../../../src/service/event/upload-check-pool.js";
import { checkUploadFiles } from "../../../src/service/event/upload-files.js";
import type { FileRules, UploadFiles } from "../../../src/service/event/upload-files.js";
import { honestParquet, hostileParquet, plainDoubles, plainStrings } from "../../helpers/hostile-parquet.js";

const rules: FileRules = {
  model_file: { max_bytes: 10 * 1024 * 1024, python_versions: ["3.12"], enforce_python_version: true },
  predictions: { max_bytes: 64 * 1024 * 1024, max_rows: 2_000_000, max_uncompressed_bytes: 256 * 1024 * 1024, max_columns: 64 },
};

function files(n: number): UploadFiles {
  const ids = Array.from({ length: n }, (_, i) => `h${i.toString(16).padStart(15, "0")}`);
  return {
    model_pkl: { filename: "predict.pkl", bytes: samplePkl },
    predictions: { filename: "p.csv", bytes: predictionsCsv(ids, Float64Array.from(ids, (_, i) => (i + 0.5) / n)) },
    model_pkl_sha256: samplePklSha256,
    model_pkl_python_version: "3.12",
  };
}

describe("upload check pool", () => {
  it("answers a file whose reading exhausts a thread's heap with the 413 naming the limit, and checks the next upload on a new thread", async () => {
    const pool = new UploadCheckPool(1, 16);
    const exhausted = await pool.check(files(400_000), rules);
    const refusal = {
      ok: false,
      refusal: {
        code: "upload_check_memory",
        message: "File too large: reading it needs more memory than the limit of 16 MiB.",
        extra: { limit_mb: 16 },
        headers: {},
      },
    };
    expect(exhausted).toEqual({ model_file: refusal, predictions: refusal });
    const next = await pool.check(files(10), rules);
    expect(next.model_file.ok && next.predictions?.ok).toBe(true);
    expect(next.predictions?.ok && next.predictions.value.n_rows).toBe(10);
  });

  it("checks one large file at a time on two threads, keeping the other thread for small uploads", async () => {
    const pool = new UploadCheckPool(2, 256);
    await pool.ready();
    const ended: string[] = [];
    const track = (name: string, n: number) => pool.check(files(n), rules).then((r) => (ended.push(name), r));
    const large = [track("large a", 100_000), track("large b", 160_000)];
    // The first large file takes the first thread; the second waits for its turn rather than take the last.
    expect(pool.busy).toBe(1);
    const answered = track("small", 10);
    // The small upload takes the last thread at once, while the first large file is still being
    // checked (no answer can have come back within this turn) and the second still waits: it is
    // queued behind neither. Which of the small and the first large file ends first is a race of
    // two threads' speeds, and is not asked.
    expect(pool.busy).toBe(2);
    expect(pool.waiting).toBe(1);
    expect(ended).toEqual([]);
    const small = await answered;
    expect(small.predictions?.ok).toBe(true);
    await Promise.all(large);
    // The second large file waited for the first's thread: one large file at a time.
    expect(ended.filter((name) => name.startsWith("large"))).toEqual(["large a", "large b"]);
    expect([...ended].sort()).toEqual(["large a", "large b", "small"]);
  });

  it("takes a movable predictions file's memory instead of copying it, and copies bytes a caller keeps", async () => {
    const pool = new UploadCheckPool(1, 256);
    const kept = files(1000);
    const moved = files(1000);
    moved.predictions = { ...moved.predictions!, bytes: new Uint8Array(moved.predictions!.bytes), movable: true };
    const size = kept.predictions!.bytes.byteLength;
    const [a, b] = await Promise.all([pool.check(kept, rules), pool.check(moved, rules)]);
    expect(a.predictions?.ok && b.predictions?.ok && b.predictions.value.digest).toBe(a.predictions?.ok && a.predictions.value.digest);
    expect(kept.predictions!.bytes.byteLength).toBe(size);
    expect(moved.predictions!.bytes.byteLength).toBe(0);
    // A movable view of part of a larger buffer is copied: the rest of the buffer is not the upload's.
    const within = new Uint8Array(size + 8);
    within.set(kept.predictions!.bytes, 8);
    const view = files(1000);
    view.predictions = { ...view.predictions!, bytes: within.subarray(8), movable: true };
    const c = await pool.check(view, rules);
    expect(c.predictions?.ok && c.predictions.value.digest).toBe(a.predictions?.ok && a.predictions.value.digest);
    expect(view.predictions!.bytes.byteLength).toBe(size);
  });

  it("a thread that checks a large file lowers its own CPU priority; a thread of small uploads keeps its own", async () => {
    // Linux keeps a nice value per thread: field 19 of /proc/self/task/<tid>/stat.
    const bulk = String(Math.min(19, getPriority() + 10));
    const niced = () => readdirSync("/proc/self/task").filter((tid) => readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16] === bulk).length;
    const before = niced();
    const pool = new UploadCheckPool(2, 256);
    await pool.check(files(10), rules);
    expect(niced()).toBe(before);
    await pool.check(files(100_000), rules);
    expect(niced()).toBe(before + 1);
  });

  it("keeps small uploads off a thread that lowered its priority for a large file while another kept its own; a pool of one still serves them", async () => {
    const pool = new UploadCheckPool(2, 256);
    await pool.ready();
    await pool.check(files(100_000), rules);
    // Two small uploads at once: the second waits for the thread that kept its priority.
    const small = [pool.check(files(10), rules), pool.check(files(20), rules)];
    expect(pool.busy).toBe(1);
    await Promise.all(small);
    // A large file takes the thread that yielded while the other checks a small upload.
    const mixed = [pool.check(files(10), rules), pool.check(files(100_000), rules)];
    expect(pool.busy).toBe(2);
    await Promise.all(mixed);
    const one = new UploadCheckPool(1, 256);
    await one.check(files(100_000), rules);
    expect((await one.check(files(10), rules)).predictions?.ok).toBe(true);
  });

  it("sends the thread kept for small uploads up to eight at once, which it checks in turn; more wait for it", async () => {
    const pool = new UploadCheckPool(2, 256);
    await pool.ready();
    // The first thread lowers its priority for a large file: small uploads keep to the last.
    await pool.check(files(100_000), rules);
    const small = Array.from({ length: 10 }, (_, i) => pool.check(movable(10 + i), rules));
    expect(pool.busy).toBe(1);
    expect(pool.waiting).toBe(2);
    const checked = await Promise.all(small);
    expect(checked.map((r) => r.predictions?.ok && r.predictions.value.n_rows)).toEqual(Array.from({ length: 10 }, (_, i) => 10 + i));
  });

  it("checks on a new thread the small uploads sent behind one whose thread ended (a refused parquet file), their bytes copied, not moved", async () => {
    const pool = new UploadCheckPool(2, 256);
    await pool.ready();
    await pool.check(files(100_000), rules);
    const refused = pool.check(parquet(damagedParquet()), rules);
    const behind = [movable(10), movable(20)];
    const sizes = behind.map((f) => f.predictions!.bytes.byteLength);
    const checks = behind.map((f) => pool.check(f, rules));
    expect(pool.waiting).toBe(0);
    expect(behind.map((f) => f.predictions!.bytes.byteLength)).toEqual(sizes);
    expect((await refused).predictions?.ok).toBe(false);
    const checked = await Promise.all(checks);
    expect(checked.map((r) => r.predictions?.ok && r.predictions.value.n_rows)).toEqual([10, 20]);
    expect(pool.started).toBe(3);
  });

  it("sends a lane's truth to a thread once while the thread keeps it (the two used last), and scores every upload against the truth it names", async () => {
    const truths = Array.from({ length: 3 }, (_, k) => truth(k));
    const pool = new UploadCheckPool(1, 256);
    // Truth 0 stays while it is used; 1 is sent again once 2 and 0 were used after it.
    const sequence = [0, 0, 1, 0, 2, 0, 1];
    for (const k of sequence) {
      const checked = await pool.check(files(TRUTH_ROWS), { ...rules, score_against: truths[k] });
      const here = checkUploadFiles(files(TRUTH_ROWS), { ...rules, score_against: truths[k] });
      expect(checked.predictions?.ok && checked.predictions.value.scores).toEqual(here.predictions?.ok && here.predictions.value.scores);
    }
    expect(pool.truthsSent).toBe(4);
  });

  it("sends the truth again to the thread that replaces one that ran out of memory", async () => {
    const pool = new UploadCheckPool(1, 16);
    const expeds = truth(0);
    await pool.check(files(TRUTH_ROWS), { ...rules, score_against: expeds });
    await pool.check(files(400_000), rules);
    const checked = await pool.check(files(TRUTH_ROWS), { ...rules, score_against: expeds });
    const here = checkUploadFiles(files(TRUTH_ROWS), { ...rules, score_against: expeds });
    expect(checked.predictions?.ok && checked.predictions.value.scores).toEqual(here.predictions?.ok && here.predictions.value.scores);
    expect(pool.truthsSent).toBe(2);
  });

  it("terminates a check past its deadline (413 naming the limit) and replaces its thread at once for the next upload", async () => {
    // A deadline of a millisecond: no thread checks 100 000 rows that fast, so the deadline always comes first.
    const pool = new UploadCheckPool(1, 256, 0.001);
    const late = await pool.check(files(100_000), rules);
    const refusal = {
      ok: false,
      refusal: { code: "upload_check_time", message: "File too large: reading it takes longer than the limit of 0.001 seconds.", extra: { limit_seconds: 0.001 }, headers: {} },
    };
    expect(late).toEqual({ model_file: refusal, predictions: refusal });
    // Replaced at once, with nothing waiting: the next upload finds the new thread.
    expect(pool.started).toBe(2);
  });

  it("replaces the thread that refused a parquet file, so no decoder is used again after it failed; keeps the one that accepted", async () => {
    const pool = new UploadCheckPool(1, 256);
    const good = honestParquet(["a", "b"], [0.25, 0.75]);
    expect((await pool.check(parquet(good), rules)).predictions?.ok).toBe(true);
    expect(pool.started).toBe(1);
    const refused = await pool.check(parquet(damagedParquet()), rules);
    expect(refused.predictions).toMatchObject({ ok: false, refusal: { code: "predictions_file_unreadable", message: expect.stringContaining("eof decoding byte array") } });
    const after = await pool.check(parquet(good), rules);
    expect(after.predictions?.ok && after.predictions.value.n_rows).toBe(2);
    expect(pool.started).toBe(2);
  });

  it("fails an upload whose bytes cannot be sent, and goes on checking the next", async () => {
    const pool = new UploadCheckPool(1, 256);
    const gone = files(10);
    const bytes = new Uint8Array(gone.predictions!.bytes);
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    gone.predictions = { ...gone.predictions!, bytes, movable: true };
    await expect(pool.check(gone, rules)).rejects.toThrow("An ArrayBuffer is detached and could not be cloned.");
    expect(pool.busy).toBe(0);
    const next = await pool.check(files(10), rules);
    expect(next.predictions?.ok).toBe(true);
  });
});

function parquet(bytes: Uint8Array): UploadFiles {
  return { ...files(1), predictions: { filename: "p.parquet", bytes } };
}

/** A parquet file whose sizes and rows are all as declared, so only the decoder finds it wrong: an id whose length runs past its page. */
function damagedParquet(): Uint8Array {
  const ids = plainStrings(["a", "b"]);
  ids.writeUInt32LE(1000, 0);
  const values = plainDoubles([0.25, 0.75]);
  return hostileParquet({ codec: 0, id: [{ body: ids, uncompressed: ids.length, values: 2 }], prediction: [{ body: values, uncompressed: values.length, values: 2 }] });
}

/** `files(n)` whose predictions the caller gives up (movable bytes of their own). */
function movable(n: number): UploadFiles {
  const f = files(n);
  return { ...f, predictions: { ...f.predictions!, bytes: new Uint8Array(f.predictions!.bytes), movable: true } };
}

const TRUTH_ROWS = 50;

/** One exped over the ids of `files(TRUTH_ROWS)`, its target turned by `k`. */
function truth(k: number): PreparedExped[] {
  const ids = Array.from({ length: TRUTH_ROWS }, (_, i) => `h${i.toString(16).padStart(15, "0")}`);
  return [
    prepareExped({
      ids,
      target: Float64Array.from(ids, (_, i) => ((i * (k + 3)) % TRUTH_ROWS) / TRUTH_ROWS),
      benchmark: Float64Array.from(ids, (_, i) => ((i * 7) % TRUTH_ROWS) / TRUTH_ROWS),
      core: [],
    }),
  ];
}
