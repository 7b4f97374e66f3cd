/**
 * The served-latency bench's batch, sent from a process of its own so that the client measuring
 * the other agents does not also stream its half gigabyte (a load generator should not measure
 * itself): builds one agent's batch form (argument: `{"url", "key", "models", "rows"}`, a file of
 * `rows` rows per model), encoded whole before it is sent (multipart), prints `{"file_mb"}` once it
 * is built, sends it through node:http when a line arrives on stdin (streaming a FormData through
 * fetch costs the sender several times the CPU, taken from the server on the shared cores), and
 * prints `{"status", "ms", "body"}` (the answer's first 400 characters).
 */
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";
import { send } from "./http-send.js";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../sim/agents/event-upload.js";

const { url, key, models, rows } = JSON.parse(process.argv[2]) as { url: string; key: string; models: string[]; rows: number };

function ids(n: number, tag: string): string[] {
  return Array.from({ length: n }, (_, i) => `${tag}${i.toString(16).padStart(16 - tag.length, "0")}`);
}

function values(n: number, k: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => (((i * k) % n) + 0.5) / n);
}

const BOUNDARY = "bench-batch-boundary-5d1e08";
const filePart = (name: string, filename: string, bytes: Uint8Array) => [
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  bytes,
  Buffer.from("\r\n"),
];
const fieldPart = (name: string, value: string) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);

const big = ids(rows, "b");
const parts: Uint8Array[] = [];
let bytes = 0;
const items = models.map((m, i) => {
  const csv = predictionsCsv(big, values(rows, 2 * i + 1));
  bytes = csv.length;
  parts.push(...filePart(`f${i}`, `p${i}.csv`, csv));
  return { model_id: m, predictions: `f${i}`, model_pkl: "pkl", model_pkl_sha256: samplePklSha256, model_pkl_python_version: "3.12" };
});
parts.push(...filePart("pkl", "predict.pkl", samplePkl), fieldPart("manifest", JSON.stringify({ items })), Buffer.from(`--${BOUNDARY}--\r\n`));
const form = Buffer.concat(parts);
console.log(JSON.stringify({ file_mb: Number((bytes / 2 ** 20).toFixed(1)) }));

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
await lines.next();
const t = performance.now();
const headers = { "X-API-Key": key, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "content-length": String(form.length) };
const answer = await send(`${url}/api/v1/diagnostics/batch`, "POST", headers, form);
console.log(JSON.stringify({ status: answer.status, ms: performance.now() - t, body: answer.text.slice(0, 400) }));
process.exit(0);
