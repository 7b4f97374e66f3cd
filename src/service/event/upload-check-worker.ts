/** Worker thread of the upload check pool: checks one upload's files per message. */
import { parentPort } from "node:worker_threads";
import { yieldCpu } from "../../domain/thread-priority.js";
import { wasmMemory } from "../../data/parquet-wasm.js";
import type { PreparedExped } from "../../scoring/exped.js";
import { useTruth } from "./kept-truths.js";
import type { CheckMessage } from "./upload-check-pool.js";
import { checkUploadFiles, type CheckedFiles } from "./upload-files.js";

/**
 * Past this much WebAssembly memory the worker asks to be replaced: wasm memory never shrinks, so
 * one large parquet file would otherwise keep its peak resident for the life of the thread.
 */
const RECYCLE_WASM_BYTES = 256 * 1024 * 1024;

/** The lanes' truths this thread holds, kept by the pool's rule (so it sends each once). */
const truths = new Map<number, readonly PreparedExped[]>();

const port = parentPort!;
port.on("message", (task: CheckMessage) => {
  if (task.large) yieldCpu();
  let result: CheckedFiles;
  try {
    const score_against = task.truth === null ? null : (task.rules.score_against ?? truths.get(task.truth));
    if (score_against === undefined) throw new Error(`truth ${task.truth} was never sent to this thread`);
    if (task.truth !== null && score_against) useTruth(truths, task.truth, score_against);
    result = checkUploadFiles(task.files, { ...task.rules, score_against });
  } catch (e) {
    port.postMessage({ id: task.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    return;
  }
  const recycle = wasmMemory().buffer.byteLength > RECYCLE_WASM_BYTES || refusedParquet(task, result);
  const checked = result.predictions?.ok ? result.predictions.value : null;
  const transfer = checked ? [checked.values.buffer as ArrayBuffer, checked.ids_json.buffer as ArrayBuffer] : [];
  port.postMessage({ id: task.id, result, recycle }, transfer);
});
port.postMessage({ ready: true });

/**
 * A parquet file refused: its decoder may have failed midway (a Rust panic or a trap leaves the
 * WebAssembly instance in an unknown state), so this thread is replaced rather than trusted again.
 */
function refusedParquet(task: CheckMessage, result: CheckedFiles): boolean {
  return task.files.predictions?.filename.toLowerCase().endsWith(".parquet") === true && result.predictions?.ok === false;
}
