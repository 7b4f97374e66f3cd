import { createInterface } from "node:readline";
import { ForkServers } from "../../src/participant/fork-server.js";
import type { Cell } from "./cells.js";
import { STEP_INVARIANTS } from "./invariants.js";
import { runCell, type CellOutcome } from "./run-cell.js";

/** What a worker is sent, one JSON line per cell. */
export interface CellJob {
  index: number;
  cell: Cell;
}

/**
 * Marks a worker's result lines on stdout: anything else a strategy's code prints there is passed
 * on to stderr, never taken for a result.
 */
export const RESULT_MARK = "sweep-result\t";

/**
 * Node's flags for a sweep-worker (both pools start it with them). V8 optimises a function once
 * it has run for its interrupt budget; at Node 20's default (66 KiB of bytecode executed), a
 * worker whose cells each run for a fraction of a second keeps compiling and deoptimising for
 * most of the sweep: on the 24-cell grid of the sweep bench, 6 to 46 TurboFan compiles and up to
 * 600 deoptimisations a cell, 0.03 s a cell of TurboFan on its background threads beside a cell's
 * 0.11 s on the main thread. That work runs on the idle core with one worker and takes a core from
 * the other cell with two. Sixteen times the budget optimises what stays hot once its feedback is
 * complete: 0 to 15 compiles a cell, almost no deoptimisations, 0.006 s of TurboFan, the same
 * main-thread CPU (`npm run bench -- cell-cpu`). The local pool uses them only when it has a
 * worker for every core: with a core idle, the early optimised code made a worker faster. A flag of V8's, which Node refuses to start
 * with if its V8 has no such flag; tiering changes when code is optimised, never what a cell
 * computes.
 */
export const SWEEP_WORKER_NODE_FLAGS = [`--interrupt-budget=${16 * 66 * 1024}`];

/** The longest job line a worker reads (checkCells refuses a longer cell before any runs): a cell is a few hundred bytes of JSON. */
export const MAX_JOB_BYTES = 1 << 20;

/**
 * `basecamp sweep-worker`: runs the cells sent on stdin, one JSON line each, in order, and prints
 * each outcome as `RESULT_MARK {"index": …, "outcome": …}` on one line. Ends at the end of stdin.
 * The local pool keeps one per worker for the whole sweep, and the Ray driver one per Ray worker
 * process (worlds built once per process are reused). The cells' sandboxed Python workers are forked
 * from fork servers kept for the worker's life (fork-server.ts): each starts in milliseconds,
 * pandas already imported, instead of starting a sandbox and an interpreter of its own.
 */
export async function cellWorker(): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const forks = new ForkServers();
  // Both pools send a cell only once the last one's outcome is back, and close the input only
  // between cells. Input that ends while a cell runs is a pool that is gone (killed, crashed): the
  // cell is abandoned, its sandboxes killed, not run to its end for no one.
  let running = false;
  let abandoned = false;
  lines.once("close", () => {
    if (!running) return;
    abandoned = true;
    void forks.close().finally(() => process.exit(1));
  });
  try {
    for await (const line of lines) {
      if (line.trim() === "") continue;
      if (line.length > MAX_JOB_BYTES) throw new Error(`sweep-worker: a job line of ${line.length} bytes (at most ${MAX_JOB_BYTES})`);
      const job = JSON.parse(line) as CellJob;
      running = true;
      const outcome = await runCell(job.cell, STEP_INVARIANTS, forks);
      running = false;
      if (abandoned) break;
      process.stdout.write(`${RESULT_MARK}${JSON.stringify({ index: job.index, outcome })}\n`);
    }
  } finally {
    await forks.close();
  }
}

/** A worker's result line, or null for any other line it printed. */
export function parseResultLine(line: string): { index: number; outcome: CellOutcome } | null {
  if (!line.startsWith(RESULT_MARK)) return null;
  return JSON.parse(line.slice(RESULT_MARK.length)) as { index: number; outcome: CellOutcome };
}
