import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { SimClock } from "../../src/domain/clock.js";
import type { ForkServers } from "../../src/participant/fork-server.js";
import type { BacktestReport } from "../../src/report/backtest-report.js";
import { serviceContext } from "../../src/service/kernel/context.js";
import { backtest } from "../backtest/backtest.js";
import { runScenario } from "../engine.js";
import { parseScenario, type Scenario } from "../scenario.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import { faultLine, type StrategyFault } from "../agents/strategy-watch.js";
import type { Cell } from "./cells.js";
import { worldOf } from "./kept-worlds.js";
import { STEP_INVARIANTS, type Invariant } from "./invariants.js";

/** An invariant that broke: the first step after which it failed, and what it found. */
export interface Violation {
  invariant: string;
  step: number;
  detail: string;
}

export type CellResult =
  | { kind: "backtest"; report: BacktestReport }
  | { kind: "replay"; digest: string; events: number; steps: number; violations: Violation[] };

/** What a cell gave: its result, or why it failed (a failed cell never stops the sweep). */
export type CellOutcome = { ok: true; result: CellResult } | { ok: false; reason: string; traceback: string };

/** The scenario a cell runs: its file with the cell's seed, dataset fields and scoring settings laid over it. */
export function cellScenario(cell: Cell): Scenario {
  const raw = JSON.parse(readFileSync(cell.scenario, "utf8")) as Record<string, unknown>;
  if (cell.seed !== undefined) raw.seed = cell.seed;
  if (cell.dataset) raw.dataset = { ...(raw.dataset as object), ...cell.dataset };
  if (cell.scoring) raw.scoring = { ...(raw.scoring as object), ...cell.scoring };
  return parseScenario(raw, cell.scenario_name, dirname(cell.scenario));
}

/**
 * The strategies a cell runs, built-in names and files: a backtest's own and its --against ones; a
 * replay's scenario's agents' (the file's own, whatever the cell lays over it), none when the
 * scenario does not parse (the cell then fails before anything runs).
 */
export function cellStrategies(cell: Cell): string[] {
  if (cell.kind === "backtest") return [...(cell.strategy === undefined ? [] : [cell.strategy]), ...cell.against];
  try {
    return cellScenario(cell).agents.map((a) => a.strategy);
  } catch {
    return [];
  }
}

/**
 * Whether a cell runs a module strategy (a .ts or .js file: its own, an --against one, or a replayed
 * scenario's agent's). A module runs inside the process that runs the cell, where it could leave
 * behind what no later cell may see: globals, writes into the world's frames it is handed. A
 * sweep-worker ends after such a cell (cell-worker.ts).
 */
export function runsModules(cell: Cell): boolean {
  return cellStrategies(cell).some((s) => strategyFileKind(s) === "module");
}

/**
 * Runs one cell. Deterministic: the same cell gives the same outcome, byte for byte, in any process,
 * with or without `forks` (fork servers a backtest's Python workers are forked from).
 */
export async function runCell(cell: Cell, invariants: Invariant[] = STEP_INVARIANTS, forks?: ForkServers): Promise<CellOutcome> {
  try {
    const scenario = cellScenario(cell);
    return cell.kind === "backtest" ? await backtestCell(cell, scenario, forks) : { ok: true, result: await replayCell(scenario, invariants) };
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    return { ok: false, reason: error.message, traceback: error.stack ?? error.message };
  }
}

/**
 * A backtest cell. A strategy's code failing (its load, fit or a predict) fails the cell at once,
 * with Python's traceback, as it stops `basecamp backtest` without --keep-going: a cell whose
 * strategy never played is not a cell of refusals, ranked as if it had.
 */
async function backtestCell(cell: Cell, scenario: Scenario, forks: ForkServers | undefined): Promise<CellOutcome> {
  const stop = new AbortController();
  let fault: StrategyFault | undefined;
  const failed = (f: StrategyFault) => {
    if (stop.signal.aborted) return; // a worker stopped by the stop itself
    fault = f;
    stop.abort();
  };
  try {
    const { report } = await backtest({
      strategy: cell.strategy as string,
      params: cell.params,
      against: cell.against,
      scenario,
      scenarioName: cell.scenario_name,
      world: await worldOf(scenario),
      lineup: { forks, watch: { failed } },
      stop: stop.signal,
    });
    if (fault === undefined) return { ok: true, result: { kind: "backtest", report } };
  } catch (e) {
    if (fault === undefined) throw e;
  }
  return { ok: false, reason: faultLine(fault), traceback: fault.traceback ?? fault.error };
}

/**
 * Replays the scenario into a scratch store and checks every invariant after every step through a
 * read-only connection to it (an invariant is reported once, at the first step it fails); then
 * replays it again from scratch, its world built anew rather than taken from this worker's kept
 * ones (so a dataset built differently the second time shows too), and compares the event logs'
 * digests.
 */
async function replayCell(scenario: Scenario, invariants: Invariant[]): Promise<CellResult> {
  const dir = mkdtempSync(join(tmpdir(), "basecamp-swarm-"));
  const path = join(dir, "replay.db");
  const world = await worldOf(scenario);
  const violations: Violation[] = [];
  let reader: Database.Database | undefined;
  try {
    const run = await runScenario(scenario, {
      db: path,
      world,
      onEvent: (e) => {
        if (e.kind !== "progress") return;
        reader ??= new Database(path, { readonly: true });
        const view = { ctx: serviceContext({ db: reader, clock: new SimClock(Date.parse(e.now)), world }), scenario };
        for (const inv of invariants) {
          if (violations.some((v) => v.invariant === inv.name)) continue;
          const detail = inv.check(view);
          if (detail !== null) violations.push({ invariant: inv.name, step: e.step, detail });
        }
      },
    });
    reader?.close();
    reader = undefined;
    const again = await runScenario(scenario);
    if (again.digest !== run.digest) violations.push({ invariant: "digest identical on rerun", step: run.steps, detail: `${run.digest} then ${again.digest}` });
    return { kind: "replay", digest: run.digest, events: run.events, steps: run.steps, violations };
  } finally {
    reader?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
