import { parentPort, workerData } from "node:worker_threads";
import { readColumns, type ReadAnswer, type ReadRequest } from "./parquet-file.js";

/** The thread ParquetFile.read decodes on: one request, one answer, then it is ended (and its wasm memory with it). */
const { path, columns } = workerData as ReadRequest;
const port = parentPort as NonNullable<typeof parentPort>;
try {
  const read = [...(await readColumns(path, columns))];
  const buffers = read.flatMap(([, values]) => (Array.isArray(values) ? [] : [values.buffer as ArrayBuffer]));
  port.postMessage({ columns: read } satisfies ReadAnswer, buffers);
} catch (e) {
  port.postMessage({ error: (e as Error).message } satisfies ReadAnswer);
}
