import { describe, expect, it } from "vitest";
import { EVENT_UPLOAD_DEFAULTS } from "../../src/service/kernel/settings/upload-limits.js";
import { deepSchemaParquet, honestParquet, inflatingIdParquet, understatedRowsParquet } from "../helpers/hostile-parquet.js";
import { callTool, mcpClient } from "../mcp/client.js";
import { smallEvent } from "../helpers/small-event.js";
import { ANN, BEN, PKL, PRACTICE_UPLOAD, ROUND_UPLOAD, csvUpload, newModel, postForm, splitIds, spread, toPhase, uploadForm } from "./event-server.js";
import { refusal, serveScenario, type Answer, type TestServer } from "./server.js";

/**
 * The three parquet files that broke a served deployment (issue 19, item 1), sent by ann while ben
 * uploads valid parquet and CSV files: each is refused with the stated 4xx, the server stays up,
 * and ben's uploads made during and after every attack are accepted.
 */
const LIMIT_BYTES = EVENT_UPLOAD_DEFAULTS.predictions_max_uncompressed_bytes;
const LIMIT_ROWS = EVENT_UPLOAD_DEFAULTS.predictions_max_rows;

interface Attack {
  name: string;
  bytes: () => Uint8Array;
  status: number;
  code: string;
  message: string;
}

const ATTACKS: Attack[] = [
  {
    name: "(a) a 0.4 MB file whose id inflates to 400 MiB, the footer declaring 100 bytes",
    bytes: () => inflatingIdParquet(400),
    status: 413,
    code: "predictions_too_much_data",
    message: `File too large: its columns hold ${4 + 400 * 2 ** 20 + 8} bytes uncompressed; the limit is ${LIMIT_BYTES} bytes.`,
  },
  {
    name: "(a') the same with its page header declaring 100 bytes too",
    bytes: () => inflatingIdParquet(400, 100),
    status: 413,
    code: "predictions_too_much_data",
    message: `File too large: its columns hold more than ${LIMIT_BYTES} bytes uncompressed; the limit is ${LIMIT_BYTES} bytes.`,
  },
  {
    name: "(b) a footer saying 1000 rows over pages holding 50 million",
    bytes: () => understatedRowsParquet(50, 1000),
    status: 413,
    code: "predictions_too_many_rows",
    message: `File too large: it holds 50000000 rows; the limit is ${LIMIT_ROWS} rows.`,
  },
  {
    name: "(c) a schema nested 100 000 deep",
    bytes: () => deepSchemaParquet(100_000),
    status: 400,
    code: "predictions_file_unreadable",
    message: "The predictions file is not readable parquet: its schema nests more than 32 levels deep.",
  },
];

/**
 * The small event without an upload pool, its rate limit's ceiling out of reach: ben's status loop
 * polls as fast as the server answers for as long as the attacks last, so how many calls it makes
 * in a window depends on the machine's speed (more than the default 1000 a minute on a quick one).
 */
const attackedServer = () => serveScenario(smallEvent({ rate_limit: { ceiling: 1e9, window_seconds: 60 } }, { upload_pool: null }));

/** `p`'s answer and how long it took (reported, not asserted: the machine may be busy; a hang fails the test at its timeout). */
async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  return { value: await p, ms: performance.now() - start };
}

const parquetForm = (model_id: string, bytes: Uint8Array) => uploadForm({ model_id, predictions: { name: "predictions.parquet", bytes } });

/** Ben's upload accepted; else the failure says when, and shows the refusal. */
function accepted(when: string, a: Answer): void {
  expect({ when, status: a.status, detail: a.json?.detail }).toMatchObject({ when, status: 202 });
}

/**
 * Ben's valid uploads, each to a new model with other values (no run in flight, no duplicate):
 * parquet and CSV in turn.
 */
function benUploads(s: TestServer, lane: string, ids: string[]): () => Promise<Answer> {
  let k = 0;
  return async () => {
    k++;
    const m = await newModel(s, BEN, `ben${k}`);
    const values = spread(ids, k + 1);
    return postForm(s, lane, BEN, k % 2 ? parquetForm(m, honestParquet(ids, values)) : csvUpload(m, ids, values));
  };
}

/** Ben's `GET /api/v1/status` in a loop until `stop`: each answer's time (reported, not asserted: the machine may be busy). */
function statusLoop(s: TestServer): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let done = false;
  const loop = (async () => {
    while (!done) {
      const t = performance.now();
      expect((await s.get("/api/v1/status", BEN)).status).toBe(200);
      times.push(performance.now() - t);
    }
  })();
  return {
    stop: async () => {
      done = true;
      await loop;
      return times.sort((a, b) => a - b);
    },
  };
}

async function underAttack(s: TestServer, lane: string, ids: string[]): Promise<void> {
  const attacker = await newModel(s, ANN, "attacker");
  const ben = benUploads(s, lane, ids);
  const times: string[] = [];
  const status = statusLoop(s);
  for (const attack of ATTACKS) {
    const bytes = attack.bytes();
    const [sent, during] = await Promise.all([timed(postForm(s, lane, ANN, parquetForm(attacker, bytes))), ben()]);
    times.push(`${attack.name.slice(0, 4)} ${(bytes.length / 1e6).toFixed(2)} MB: ${Math.round(sent.ms)} ms`);
    expect(refusal(sent.value)).toEqual({ status: attack.status, code: attack.code, message: attack.message });
    accepted(attack.name, during);
    for (const a of [await ben(), await ben()]) accepted(`after ${attack.name}`, a);
  }
  const polled = await status.stop();
  const p99 = polled[Math.min(polled.length - 1, Math.ceil(polled.length * 0.99) - 1)];
  console.log(`${lane}: answers to the attacks: ${times.join("; ")}; another agent's status meanwhile: n ${polled.length}, p99 ${p99.toFixed(1)} ms`);
}

describe("hostile parquet over HTTP: refused in time, the server up, others' uploads accepted", () => {
  it("on the practice lane", async () => {
    const s = await attackedServer();
    await underAttack(s, PRACTICE_UPLOAD, await splitIds(s, BEN, "validation"));
  });

  it("on the round lane", async () => {
    const s = await attackedServer();
    await toPhase(s, "round_1");
    await underAttack(s, ROUND_UPLOAD, await splitIds(s, BEN, "live"));
  });

  it("by MCP submit_validation_diagnostics", async () => {
    const s = await attackedServer();
    const ids = await splitIds(s, BEN, "validation");
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const attacker = await newModel(s, ANN, "attacker");
    const ben = benUploads(s, PRACTICE_UPLOAD, ids);
    for (const attack of ATTACKS) {
      const args = {
        model_id: attacker,
        predictions_base64: Buffer.from(attack.bytes()).toString("base64"),
        predictions_filename: "p.parquet",
        model_pkl_base64: Buffer.from(PKL).toString("base64"),
        model_pkl_python_version: "3.12",
      };
      const [sent, during] = await Promise.all([timed(callTool(ann, "submit_validation_diagnostics", args)), ben()]);
      expect(sent.value).toMatchObject({ isError: true, json: { detail: { code: attack.code, message: attack.message } } });
      accepted(attack.name, during);
    }
    accepted("after the attacks", await ben());
  });
});
