import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { packageFile } from "../../src/package-files.js";
import { jobLine, parseResultLine } from "./cell-lines.js";
import type { PlannedCell } from "./cells.js";
import { pinnedCommand, poolCpus } from "./core-pinning.js";
import type { CellOutcome } from "./run-cell.js";
import { SWEEP_WORKER_NODE_FLAGS } from "./worker-node-flags.js";
import { WorldQueue } from "./world-order.js";

/** How a pool hands back each cell as it finishes, and learns it should stop. */
export interface PoolRun {
  onOutcome: (cell: PlannedCell, outcome: CellOutcome) => void;
  /** Aborted (Ctrl-C): no new cell starts, running ones are killed and left unrecorded. */
  signal: AbortSignal;
}

/** The last bytes of a worker's stderr kept, to tell why it died. */
const STDERR_TAIL = 8192;

/**
 * Runs cells on `workers` child processes of this machine, each a `basecamp sweep-worker` that
 * keeps its built worlds for the cells it is given next, and is given one world's cells at a time
 * (WorldQueue). A worker that dies fails its cell (with
 * its stderr's tail as the traceback) and is replaced. Each worker leads its own process group, so
 * a terminal's Ctrl-C reaches only this process, which stops them itself.
 */
export async function runLocalPool(cells: PlannedCell[], workers: number, run: PoolRun): Promise<void> {
  const queue = new WorldQueue(cells);
  const live = new Set<ChildProcess>();
  const stopAll = () => {
    for (const child of live) killGroup(child);
  };
  run.signal.addEventListener("abort", stopAll, { once: true });
  // V8 compiles optimised code on background threads: free while a core is idle, taken from
  // another cell's worker once every core has one (worker-node-flags.ts).
  const flags = workers >= availableParallelism() ? SWEEP_WORKER_NODE_FLAGS : [];
  // A worker per CPU: each slot's process tree on a CPU of its own (core-pinning.ts).
  const cpus = poolCpus(workers);
  try {
    await Promise.all(Array.from({ length: Math.min(workers, cells.length) }, (_, slot) => serve(slot, cpus?.[slot])));
  } finally {
    run.signal.removeEventListener("abort", stopAll);
    stopAll();
  }

  /** Worker slot `slot`: a process fed one cell at a time until the queue is empty (a new process after a death), on `cpu` if given. */
  async function serve(slot: number, cpu: number | undefined): Promise<void> {
    while (queue.left > 0 && !run.signal.aborted) {
      const [file, args] = pinnedCommand(cpu, process.execPath, [...flags, packageFile("bin/basecamp.js"), "sweep-worker"]);
      const child = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"], detached: true });
      live.add(child);
      await feed(child, slot);
      live.delete(child);
      killGroup(child);
    }
  }

  function feed(child: ChildProcess, slot: number): Promise<void> {
    return new Promise((done) => {
      let current: PlannedCell | undefined;
      let stderr = "";
      const next = () => {
        current = run.signal.aborted ? undefined : queue.take(slot);
        if (current) child.stdin!.write(`${jobLine(current)}\n`);
        else child.stdin!.end();
      };
      child.stdin!.on("error", () => {});
      child.stderr!.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-STDERR_TAIL)));
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const result = parseResultLine(line);
        if (result === null) {
          // A strategy's own output goes on to stderr; a blank line is the worker's own, before each result (resultText).
          if (line !== "") process.stderr.write(`${line}\n`);
          return;
        }
        if (!current || result.index !== current.index) return;
        run.onOutcome(current, result.outcome);
        if (!result.retiring) return next();
        // It ends by itself: the serve loop starts the next worker.
        current = undefined;
        child.stdin!.end();
      });
      child.on("close", (code, signal) => {
        if (current && !run.signal.aborted) {
          const how = signal ? `signal ${signal}` : `code ${code}`;
          run.onOutcome(current, { ok: false, reason: `the worker process exited (${how}) while running the cell`, traceback: stderr });
        }
        done();
      });
      next();
    });
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}
