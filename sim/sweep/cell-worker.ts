import { createInterface } from "node:readline";
import { ForkServers } from "../../src/participant/fork-server.js";
import { MAX_JOB_BYTES, resultText, type CellJob } from "./cell-lines.js";
import { STEP_INVARIANTS } from "./invariants.js";
import { runCell, runsModules } from "./run-cell.js";

/**
 * `basecamp sweep-worker`: runs the cells sent on stdin, one JSON line each, in order, and prints
 * each outcome as `RESULT_MARK {"index": …, "outcome": …}` on a line of its own (resultText). Ends at the end of stdin.
 * The local pool keeps one per worker for the whole sweep, and the Ray driver one per Ray worker
 * process (worlds built once per process are reused). The cells' sandboxed Python workers are forked
 * from fork servers kept for the worker's life (fork-server.ts): each starts in milliseconds,
 * pandas already imported, instead of starting a sandbox and an interpreter of its own. After a
 * cell that runs a module strategy (runsModules) it ends, its result marked `retiring`, and its pool
 * starts another: nothing that module left in the process reaches a later cell.
 */
export async function cellWorker(): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const forks = new ForkServers();
  // Both pools send a cell only once the last one's outcome is back, and close the input only
  // between cells. Input that ends while a cell runs is a pool that is gone (killed, crashed): the
  // cell is abandoned, its sandboxes killed, not run to its end for no one.
  let running = false;
  let abandoned = false;
  // Whether the cell in hand runs a module strategy, after which this worker ends (its result says so).
  let retiring = false;
  lines.once("close", () => {
    if (!running) return;
    abandoned = true;
    void forks.close().finally(() => process.exit(1));
  });
  try {
    for await (const line of lines) {
      if (line.trim() === "") continue;
      const bytes = Buffer.byteLength(line);
      if (bytes > MAX_JOB_BYTES) throw new Error(`sweep-worker: a job line of ${bytes} bytes (at most ${MAX_JOB_BYTES})`);
      const job = JSON.parse(line) as CellJob;
      running = true;
      retiring = runsModules(job.cell);
      const outcome = await runCell(job.cell, STEP_INVARIANTS, forks);
      running = false;
      if (abandoned) break;
      await written(resultText({ index: job.index, outcome, ...(retiring ? { retiring: true as const } : {}) }));
      if (retiring) break;
    }
  } finally {
    await forks.close();
  }
  // What the module left running (timers, sockets) ends with the process, as its state does.
  if (retiring) process.exit(0);
}

/** Once `text` is handed to stdout's pipe: so that a worker that ends next loses none of it. */
function written(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
