import type { Cell } from "./cells.js";
import type { CellOutcome } from "./run-cell.js";

/*
 * The lines between a pool (local-pool.ts, ray-pool.ts through ray_driver.py) and its
 * sweep-workers (cell-worker.ts): a job line in, one cell's JSON; a result line out, its outcome.
 */

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

/** The longest job line a worker reads (checkCells refuses a longer cell before any runs): a cell is a few hundred bytes of JSON. */
export const MAX_JOB_BYTES = 1 << 20;

/** A cell's job line, as both pools send it (without its newline). */
export function jobLine(job: CellJob): string {
  return JSON.stringify({ index: job.index, cell: job.cell });
}

/** What a result line holds: the cell's index and outcome, and whether the worker ends after it (`retiring`: it ran a module strategy, runsModules). */
export interface CellResult {
  index: number;
  outcome: CellOutcome;
  retiring?: true;
}

/**
 * A cell's result, as a worker prints it: its line, after a newline of its own, so that whatever a
 * strategy's code printed without ending its line ends there (a blank line otherwise, which the
 * pools skip) rather than running into the mark.
 */
export function resultText(result: CellResult): string {
  return `\n${RESULT_MARK}${JSON.stringify(result)}\n`;
}

/** A worker's result line, or null for any other line it printed. */
export function parseResultLine(line: string): CellResult | null {
  if (!line.startsWith(RESULT_MARK)) return null;
  return JSON.parse(line.slice(RESULT_MARK.length)) as CellResult;
}
