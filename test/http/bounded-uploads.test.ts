import { describe, expect, it } from "vitest";
import { EVENT_UPLOAD_DEFAULTS } from "../../src/service/kernel/settings/upload-limits.js";
import { uploadCheckPool } from "../../src/service/event/upload-check-pool.js";
import { claimedParquet } from "../helpers/parquet-claim.js";
import { refusal } from "./server.js";
import { ANN, BEN, PRACTICE_UPLOAD, csv, csvUpload, eventServer, newModel, postForm, spread, uploadForm } from "./event-server.js";

const parquetUpload = (model_id: string, bytes: Uint8Array) => uploadForm({ model_id, predictions: { name: "predictions.parquet", bytes } });
const ids = (n: number, tag = "r") => Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(12, "0")}`);

describe("bounded uploads over HTTP", () => {
  it("refuses a tiny parquet claiming 50M rows from its footer (413 naming the limit), answering others meanwhile, with little memory", async () => {
    const s = await eventServer();
    const m = await newModel(s, ANN, "bomb");
    const before = process.memoryUsage().rss;
    const bomb = postForm(s, PRACTICE_UPLOAD, ANN, parquetUpload(m, claimedParquet(50_000_000)));
    const status = await s.get("/api/v1/status", BEN);
    expect(status.status).toBe(200);
    const a = await bomb;
    const limit = EVENT_UPLOAD_DEFAULTS.predictions_max_rows;
    expect(a.status).toBe(413);
    expect(a.json.detail).toMatchObject({
      code: "predictions_too_many_rows",
      message: `File too large: it holds 50000000 rows; the limit is ${limit} rows.`,
      limit,
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("refuses 10M distinct ids (a parquet footer's claim) and a CSV past predictions_max_rows, counted as it is parsed", async () => {
    const s = await eventServer({ predictions_max_rows: 500 });
    const m = await newModel(s, ANN, "many");
    const parquet = await postForm(s, PRACTICE_UPLOAD, ANN, parquetUpload(m, claimedParquet(10_000_000)));
    expect(refusal(parquet)).toEqual({ status: 413, code: "predictions_too_many_rows", message: "File too large: it holds 10000000 rows; the limit is 500 rows." });
    const many = ids(501);
    const csvRefused = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, many, spread(many)));
    expect(refusal(csvRefused)).toEqual({ status: 413, code: "predictions_too_many_rows", message: "File too large: it holds more than 500 rows; the limit is 500 rows." });
    const fits = ids(500);
    expect((await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(m, fits, spread(fits)))).status).toBe(202);
  });

  it("refuses a footer claiming more uncompressed bytes than predictions_max_uncompressed_bytes", async () => {
    const s = await eventServer({ predictions_max_uncompressed_bytes: 1 << 20 });
    const m = await newModel(s, ANN, "wide");
    const a = await postForm(s, PRACTICE_UPLOAD, ANN, parquetUpload(m, claimedParquet(100, 4 * 2 ** 30)));
    expect(refusal(a)).toEqual({
      status: 413,
      code: "predictions_too_much_data",
      message: `File too large: its columns hold ${4 * 2 ** 30} bytes uncompressed; the limit is 1048576 bytes.`,
    });
  });

  it("answers 400 naming the problem, never 500, for malformed files", async () => {
    const s = await eventServer();
    const m = await newModel(s, ANN, "junk");
    const good = claimedParquet(10);
    const noData = good; // a footer that points at pages that are not there
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24);
    const magicOnly = Uint8Array.from([...Buffer.from("PAR1"), ...garbage.subarray(0, 64), ...Buffer.from("PAR1")]);
    const cases: [string, Uint8Array][] = [
      ["predictions.parquet", noData],
      ["predictions.parquet", garbage],
      ["predictions.parquet", magicOnly],
      ["predictions.parquet", good.subarray(0, good.length - 3)],
      ["predictions.csv", garbage],
      ["predictions.csv", Buffer.from('id,prediction\n"a,0.5\n')],
    ];
    for (const [name, bytes] of cases) {
      const a = await postForm(s, PRACTICE_UPLOAD, ANN, uploadForm({ model_id: m, predictions: { name, bytes } }));
      expect([name, a.status, a.json.detail.code]).toEqual([name, 400, "predictions_file_unreadable"]);
    }
  });

  it("answers another agent's status while a large upload is being read off the serial path", async () => {
    const s = await eventServer({ predictions_max_rows: 2_000_000, predictions_max_uncompressed_bytes: 1 << 30 });
    const m = await newModel(s, ANN, "large");
    const many = ids(400_000, "large");
    const big = csv(many, spread(many));
    const pool = uploadCheckPool(EVENT_UPLOAD_DEFAULTS.upload_check_workers, EVENT_UPLOAD_DEFAULTS.upload_check_memory_mb);
    const events: string[] = [];
    const upload = postForm(s, PRACTICE_UPLOAD, ANN, uploadForm({ model_id: m, predictions: { name: "predictions.csv", bytes: big } })).then((a) => {
      events.push("upload");
      return a;
    });
    while (pool.busy === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const status = await s.get("/api/v1/status", BEN);
    events.push("status");
    expect(status.status).toBe(200);
    expect((await upload).status).toBe(202);
    expect(events).toEqual(["status", "upload"]);
  });
});
