/** Worker thread of the upload check pool: checks one upload's files, or scores one run, per message. */
import { parentPort } from "node:worker_threads";
import { wasmMemory } from "parquet-wasm";
import { decodePredictions } from "../submission-codec.js";
import type { Job } from "./upload-check-pool.js";
import { scoreRun, type RunScores } from "./run-scores.js";
import { checkUploadFiles, type CheckedFiles } from "./upload-files.js";

/**
 * Past this much WebAssembly memory the worker asks to be replaced: wasm memory never shrinks, so
 * one large parquet file would otherwise keep its peak resident for the life of the thread.
 */
const RECYCLE_WASM_BYTES = 256 * 1024 * 1024;

const port = parentPort!;
port.on("message", ({ id, job }: { id: number; job: Job }) => {
  let result: CheckedFiles | RunScores;
  try {
    result = "score" in job ? score(job.score) : checkUploadFiles(job.files, job.rules);
  } catch (e) {
    port.postMessage({ id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    return;
  }
  const recycle = wasmMemory().buffer.byteLength > RECYCLE_WASM_BYTES;
  const transfer = "predictions" in result && result.predictions?.ok ? [result.predictions.value.values.buffer as ArrayBuffer] : [];
  port.postMessage({ id, result, recycle }, transfer);
});
port.postMessage({ ready: true });

function score({ ids_json, values, truths }: Extract<Job, { score: unknown }>["score"]): RunScores {
  return scoreRun(JSON.parse(ids_json) as string[], decodePredictions(Buffer.from(values.buffer, values.byteOffset, values.byteLength)), truths);
}
