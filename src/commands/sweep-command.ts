import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { DEFAULT_RANK_METRIC, parseRankMetric } from "../report/sweep-report.js";
import { pythonOptions } from "./python-flags.js";
import type { SweepFlags } from "./sweep.js";

/** `basecamp sweep <file>`: many backtests (or replays) at once, on every core or a Ray cluster, with a leaderboard. */
export function registerSweepCommand(program: Command): void {
  const command = program
    .command("sweep")
    .description("run a sweep file's cells (backtests over strategies, parameters, datasets, scoring settings and seeds, or replays) in parallel and rank them")
    .argument("<sweep>", "a sweep JSON file (see README, Sweeps)")
    .option("--workers <n>", `local worker processes (at most ${WORKERS_PER_CORE} a core)`, workersFlag, availableParallelism())
    .option("--ray <address>", "run each cell as a task on this Ray cluster (an address, or auto) instead of locally")
    .option("--ray-python <python>", "the Python with ray installed that runs the Ray driver", "python3")
    .option("--ray-cpus <n>", "CPUs each cell's Ray task asks for", (v) => countFlag("--ray-cpus", v), 1)
    .option("--ray-memory <MiB>", "memory each cell's Ray task asks for (0: none)", (v) => countFlag("--ray-memory", v, 0), 0)
    .option("--out <file>", "the results store (SQLite); default: beside the sweep file, <name>.sweep.db")
    .option("--resume", "skip the cells the results store has finished")
    .option("--rank-by <metric>", "the leaderboard's order: TERM.STAT, e.g. score.mean, corr.sharpe, score.max_drawdown", parseRankMetric, DEFAULT_RANK_METRIC)
    .option("--json", "print the report (every cell's summary and per-exped series) as JSON")
    .option("--html <file>", "also write the report as one self-contained HTML page")
    .option("--cell <index>", "run only this cell here, without the results store, and print its outcome (a failed cell's reproducing command)", (v) => countFlag("--cell", v, 0));
  pythonOptions(command, false).action(async (file: string, flags: SweepFlags) => (await import("./sweep.js")).sweepCommand(file, flags));
  program
    .command("sweep-worker", { hidden: true })
    .description("run the sweep cells sent on stdin, one JSON line each, printing each outcome (the pools start it)")
    .action(async () => (await import("../../sim/sweep/cell-worker.js")).cellWorker());
}

/**
 * The most local workers a sweep starts, per core: each is a Node process with its own Python, and
 * many more than the cores only share them (a typo such as 500 would start 500 processes).
 */
const WORKERS_PER_CORE = 4;

function workersFlag(v: string): number {
  const n = countFlag("--workers", v);
  const cores = availableParallelism();
  if (n > WORKERS_PER_CORE * cores) throw new Error(`--workers ${v}: at most ${WORKERS_PER_CORE * cores} on this machine (${WORKERS_PER_CORE} × its ${cores} core${cores === 1 ? "" : "s"})`);
  return n;
}

function countFlag(flag: string, v: string, min = 1): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min) throw new Error(`${flag}: expected an integer >= ${min}, got '${v}'`);
  return n;
}
