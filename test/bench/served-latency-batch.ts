/**
 * The served-latency bench's batch, sent from a process of its own so that the client measuring
 * the other agents does not also stream its half gigabyte (a load generator should not measure
 * itself): builds one agent's batch form (argument: `{"url", "key", "models", "rows"}`, a file of
 * `rows` rows per model), prints `{"file_mb"}` once it is built, sends it when a line arrives on
 * stdin, and prints `{"status", "ms", "body"}` (the answer's first 400 characters).
 */
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../sim/agents/event-upload.js";

const { url, key, models, rows } = JSON.parse(process.argv[2]) as { url: string; key: string; models: string[]; rows: number };

function ids(n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(16 - tag.length, "0")}`);
}

function values(n: number, k: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => (((i * k) % n) + 0.5) / n);
}

const big = ids(rows, "b");
const form = new FormData();
let bytes = 0;
const items = models.map((m, i) => {
  const csv = predictionsCsv(big, values(rows, 2 * i + 1));
  bytes = csv.length;
  form.set(`f${i}`, new Blob([csv as Uint8Array<ArrayBuffer>]), `p${i}.csv`);
  return { model_id: m, predictions: `f${i}`, model_pkl: "pkl", model_pkl_sha256: samplePklSha256, model_pkl_python_version: "3.12" };
});
form.set("pkl", new Blob([samplePkl as Uint8Array<ArrayBuffer>]), "predict.pkl");
form.set("manifest", JSON.stringify({ items }));
console.log(JSON.stringify({ file_mb: Number((bytes / 2 ** 20).toFixed(1)) }));

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await lines.next();
const t = performance.now();
const res = await fetch(`${url}/api/v1/diagnostics/batch`, { method: "POST", headers: { "X-API-Key": key }, body: form });
const body = await res.text();
console.log(JSON.stringify({ status: res.status, ms: performance.now() - t, body: body.slice(0, 400) }));
process.exit(0);
