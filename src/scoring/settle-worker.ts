/**
 * Worker thread of `scoreSubmissions`. It holds no state between jobs but the exped it prepared
 * last, so the pool parks it for the next settlement: a thread's first chunk of a job brings the
 * truth, which it prepares once for the rest of that job's chunks.
 */
import { parentPort } from "node:worker_threads";
import { yieldCpu } from "../domain/thread-priority.js";
import { prepareExped, scoreAgainst, type ExpedTruth, type PreparedExped } from "./exped.js";

interface Chunk {
  start: number;
  truth?: ExpedTruth;
  subs: { ids: string[] | null; prediction: Float64Array }[];
}

yieldCpu();
const port = parentPort!;
let truth: ExpedTruth | undefined;
let prepared: PreparedExped | undefined;
port.on("message", (chunk: Chunk) => {
  if (chunk.truth) {
    truth = chunk.truth;
    prepared = prepareExped(truth);
  }
  const results = chunk.subs.map((s) => scoreAgainst(prepared!, s.ids ?? truth!.ids, s.prediction));
  port.postMessage({ start: chunk.start, results });
});
port.postMessage({ ready: true });
