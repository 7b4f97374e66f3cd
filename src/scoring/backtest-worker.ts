/** Worker thread of `scoreFrameInParallel`: scores the chunks of expeds it is sent. */
import { parentPort } from "node:worker_threads";
import { scoreSlice, type ExpedSlice } from "./backtest.js";

const port = parentPort!;
port.on("message", (chunk: { start: number; slices: ExpedSlice[] }) => {
  port.postMessage({ start: chunk.start, results: chunk.slices.map(scoreSlice) });
});
port.postMessage({ ready: true });
