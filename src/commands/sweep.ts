import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import { planCells } from "../../sim/sweep/cells.js";
import { checkCells } from "../../sim/sweep/check-cells.js";
import { runLocalPool, type PoolRun } from "../../sim/sweep/local-pool.js";
import { checkNamedFiles } from "../../sim/sweep/named-files.js";
import { checkRayAddress } from "../../sim/sweep/ray-address.js";
import { runRayPool } from "../../sim/sweep/ray-pool.js";
import { planIdentity } from "../../sim/sweep/plan-identity.js";
import { cellFileDigests } from "../../sim/sweep/cell-files.js";
import { ResultsStore } from "../../sim/sweep/results-store.js";
import { runCell, type CellOutcome } from "../../sim/sweep/run-cell.js";
import { loadSweep } from "../../sim/sweep/sweep-file.js";
import { sweepReport } from "../../sim/sweep/sweep-report.js";
import { wallTime } from "../domain/realtime-clock.js";
import { renderSweepHtml } from "../report/sweep-html.js";
import { type RankMetric, sweepFailed } from "../report/sweep-report.js";
import { formatSweepText } from "../report/sweep-text.js";
import { checkOutputPath, checkOutputsApart } from "./output-paths.js";
import { applyPythonFlags, type PythonFlags } from "./python-flags.js";

export interface SweepFlags extends PythonFlags {
  workers: number;
  ray?: string;
  rayPython: string;
  rayCpus: number;
  rayMemory: number;
  out?: string;
  resume?: boolean;
  rankBy: RankMetric;
  json?: boolean;
  html?: string;
  cell?: number;
}

/** `basecamp sweep <file>` (defined in sweep-command.ts). */
export async function sweepCommand(file: string, flags: SweepFlags): Promise<void> {
  const sweep = loadSweep(file);
  // The results store: named in errors by --out, or (the default, beside the sweep file) by its path.
  const out = flags.out ?? file.replace(/\.json$/i, "") + ".sweep.db";
  const outFlag = flags.out === undefined ? undefined : "--out";
  // `--cell N` checks its one cell: a mistake elsewhere in the file does not stop reproducing it
  // (a file its cell names but cannot find fails the cell, as in the sweep). It writes no store or page.
  if (flags.cell === undefined) {
    checkOutputPath(outFlag, out);
    if (flags.html) checkOutputPath("--html", flags.html);
    checkOutputsApart([["--html", flags.html]], [["the sweep file", file], ["the results store", out]]);
    checkNamedFiles(file, sweep);
  }
  const cells = planCells(sweep);
  checkCells(file, flags.cell === undefined ? cells : cells.filter((c) => c.index === flags.cell));
  // The workers (local, or started by the Ray driver) find the interpreter through BASECAMP_PYTHON.
  const python = flags.python === undefined ? undefined : resolve(flags.python);
  if (python) process.env.BASECAMP_PYTHON = python;
  applyPythonFlags({ python });
  if (flags.cell !== undefined) return runOne(cells, flags.cell);
  if (flags.ray) await checkRayAddress(flags.ray);
  const identity = planIdentity(cells, sweep);
  const store = new ResultsStore(out, outFlag === undefined ? out : `${outFlag} ${out}`, cells, identity, flags.resume ?? false, cellFileDigests(cells));
  const stop = new AbortController();
  let exitCode = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    exitCode = signal === "SIGINT" ? 130 : 143;
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const { done, changed } = store.done();
    if (changed.length > 0) process.stderr.write(`sweep: ${changed.length} done cell${changed.length > 1 ? "s" : ""} ran a strategy or scenario file changed since; ${changed.length > 1 ? "they run" : "it runs"} again\n`);
    const pending = cells.filter((c) => !done.has(c.index));
    const progress = progressLine(cells.length, done.size, pending.length);
    const run: PoolRun = {
      signal: stop.signal,
      onOutcome: (cell: PlannedCell, outcome: CellOutcome) => {
        store.record(cell, outcome);
        progress(outcome.ok);
      },
    };
    if (flags.ray) await runRayPool(pending, { address: flags.ray, python: flags.rayPython, cpus: flags.rayCpus, memoryMb: flags.rayMemory, strategyPython: python }, run);
    else await runLocalPool(pending, flags.workers, run);
    if (process.stderr.isTTY) process.stderr.write("\n");
    const report = sweepReport(cells, store.finished(), flags.rankBy, file, python);
    if (stop.signal.aborted) {
      process.stderr.write(`sweep: stopped with ${cells.length - report.unfinished} of ${cells.length} cells finished; --resume finishes the rest (results in ${store.path})\n`);
      process.exitCode = exitCode;
      return;
    }
    if (flags.html) await writeFile(flags.html, renderSweepHtml(report));
    process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : formatSweepText(report));
    if (sweepFailed(report)) process.exitCode = 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    store.close();
  }
}

/** `--cell N`: the cell alone, in this process, its outcome printed as JSON; exit 1 when it failed or broke an invariant. */
async function runOne(cells: PlannedCell[], index: number): Promise<void> {
  const cell = cells.find((c) => c.index === index);
  if (!cell) throw new Error(`--cell: the sweep has cells 0 to ${cells.length - 1}, not ${index}`);
  const outcome = await runCell(cell.cell);
  process.stdout.write(`${JSON.stringify({ index, varied: cell.varied, cell: cell.cell, outcome }, null, 2)}\n`);
  if (!outcome.ok || (outcome.result.kind === "replay" && outcome.result.violations.length > 0)) process.exitCode = 1;
}

/**
 * Reports each finished cell on stderr: cells done, failures and the time left at the pace so far
 * (over this run's cells only). A terminal gets one line rewritten in place; a pipe gets a line each.
 */
function progressLine(total: number, already: number, pending: number): (ok: boolean) => void {
  const started = wallTime();
  let ran = 0;
  let failed = 0;
  return (ok) => {
    ran++;
    if (!ok) failed++;
    const left = pending - ran;
    const eta = left === 0 ? "" : `, ETA ${duration(((wallTime() - started) / ran) * left)}`;
    const line = `sweep: ${already + ran} of ${total} cells done, ${failed} failed${eta}`;
    process.stderr.write(process.stderr.isTTY ? `\r\x1b[K${line}` : `${line}\n`);
  };
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}
