import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../../sim/agents/event-upload.js";
import { prepareExped, type PreparedExped } from "../../../src/scoring/exped.js";
import { UploadCheckPool } from "../../../src/service/event/upload-check-pool.js";
import { checkUploadFiles } from "../../../src/service/event/upload-files.js";
import type { FileRules, UploadFiles } from "../../../src/service/event/upload-files.js";

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
    const ended: string[] = [];
    const track = (name: string, n: number) => pool.check(files(n), rules).then((r) => (ended.push(name), r));
    const large = [track("large a", 100_000), track("large b", 160_000)];
    const small = await track("small", 10);
    // The smallest waits first. The small upload is answered while the first large file is still being checked and the second waits for its turn.
    expect(small.predictions?.ok).toBe(true);
    expect(ended).toEqual(["small"]);
    expect(pool.busy).toBe(1);
    await Promise.all(large);
    expect(ended).toEqual(["small", "large a", "large b"]);
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
  });

  it("a thread that checks a large file lowers its own CPU priority; a thread of small uploads keeps its own", async () => {
    // Linux keeps a nice value per thread: field 19 of /proc/self/task/<tid>/stat.
    const niced = () => readdirSync("/proc/self/task").filter((tid) => readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1].split(" ")[16] === "10").length;
    const before = niced();
    const pool = new UploadCheckPool(2, 256);
    await pool.check(files(10), rules);
    expect(niced()).toBe(before);
    await pool.check(files(100_000), rules);
    expect(niced()).toBe(before + 1);
  });

  it("sends a lane's truth to a thread once while the thread keeps it, and scores every upload against the truth it names", async () => {
    const n = 50;
    const ids = Array.from({ length: n }, (_, i) => `h${i.toString(16).padStart(15, "0")}`);
    const truth = (k: number): PreparedExped[] => [
      prepareExped({ ids, target: Float64Array.from(ids, (_, i) => ((i * (k + 3)) % n) / n), benchmark: Float64Array.from(ids, (_, i) => ((i * 7) % n) / n), core: [] }),
    ];
    const truths = Array.from({ length: 6 }, (_, k) => truth(k));
    const pool = new UploadCheckPool(1, 256);
    // A thread keeps four: truth 0 is sent again only after four others came in between.
    const sequence = [0, 0, 1, 0, 1, 2, 3, 4, 0, 5, 5];
    for (const k of sequence) {
      const checked = await pool.check(files(n), { ...rules, score_against: truths[k] });
      const here = checkUploadFiles(files(n), { ...rules, score_against: truths[k] });
      expect(checked.predictions?.ok && checked.predictions.value.scores).toEqual(here.predictions?.ok && here.predictions.value.scores);
    }
    expect(pool.truthsSent).toBe(7);
  });
});
