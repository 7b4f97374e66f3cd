/** Worker thread of the upload check pool: checks one upload's files per message. */
import { parentPort } from "node:worker_threads";
import { yieldCpu } from "../../scoring/thread-priority.js";
import { wasmMemory } from "parquet-wasm";
import { checkUploadFiles, type CheckedFiles, type FileRules, type UploadFiles } from "./upload-files.js";

/**
 * Past this much WebAssembly memory the worker asks to be replaced: wasm memory never shrinks, so
 * one large parquet file would otherwise keep its peak resident for the life of the thread.
 */
const RECYCLE_WASM_BYTES = 256 * 1024 * 1024;

const port = parentPort!;
port.on("message", (task: { id: number; files: UploadFiles; rules: FileRules; large: boolean }) => {
  if (task.large) yieldCpu();
  let result: CheckedFiles;
  try {
    result = checkUploadFiles(task.files, task.rules);
  } catch (e) {
    port.postMessage({ id: task.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    return;
  }
  const recycle = wasmMemory().buffer.byteLength > RECYCLE_WASM_BYTES;
  const checked = result.predictions?.ok ? result.predictions.value : null;
  const transfer = checked ? [checked.values.buffer as ArrayBuffer, checked.ids_json.buffer as ArrayBuffer] : [];
  port.postMessage({ id: task.id, result, recycle }, transfer);
});
port.postMessage({ ready: true });
