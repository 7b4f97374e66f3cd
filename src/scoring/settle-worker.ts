/** Worker thread of `scoreSubmissions`: prepares the exped once, then scores the chunks it is sent. */
import { parentPort, workerData } from "node:worker_threads";
import { prepareExped, scoreAgainst, type ExpedTruth } from "./exped.js";

interface Chunk {
  start: number;
  subs: { ids: string[] | null; prediction: Float64Array }[];
}

const port = parentPort!;
const truth = (workerData as { truth: ExpedTruth }).truth;
const prepared = prepareExped(truth);
port.on("message", (chunk: Chunk) => {
  const results = chunk.subs.map((s) => scoreAgainst(prepared, s.ids ?? truth.ids, s.prediction));
  port.postMessage({ start: chunk.start, results });
});
port.postMessage({ ready: true });
