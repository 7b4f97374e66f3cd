/** Worker thread of `scoreFrameInParallel` and `scoreExpedStream`: scores the chunks of expeds it is sent. */
import { parentPort } from "node:worker_threads";
import { scoreSlice, unpackSlice, type PortableSlice } from "./score-frame.js";

const port = parentPort!;
port.on("message", (chunk: { start: number; slices: PortableSlice[] }) => {
  port.postMessage({ start: chunk.start, results: chunk.slices.map((s) => scoreSlice(unpackSlice(s))) });
});
port.postMessage({ ready: true });
