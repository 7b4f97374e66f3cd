import { resolve } from "node:path";
import { canonicalJson } from "../../src/store/canonical-json.js";
import { higherIsBetter, metricValue, type RankMetric, type SweepBenchmark, type SweepReport, type SweepRow } from "../../src/report/sweep-report.js";
import { DESIGNATED_CONTENDER } from "../backtest/contenders.js";
import type { PlannedCell } from "./cells.js";
import type { StoredCell } from "./results-store.js";

/** The axes whose values decide the benchmark's numbers: everything but the strategy and its parameters. */
const BENCHMARK_AXES = ["scenario", "dataset", "scoring", "seed"];

/**
 * The report of a sweep from its finished cells: backtests ranked by `rankBy` (ties in the sweep's
 * order) with one v1_designated row per dataset, seed and scoring setting; replays in order; failures.
 * `file` is the sweep file as named on the command line; the reproducing commands name it by its
 * absolute path (they work from any directory), with `--python` when the sweep was given one.
 */
export function sweepReport(cells: PlannedCell[], finished: StoredCell[], rankBy: RankMetric, file: string, python?: string): SweepReport {
  const planned = new Map(cells.map((c) => [c.index, c] as const));
  const axes = cells.length === 0 ? [] : Object.keys(cells[0].varied);
  const withPython = python === undefined ? "" : ` --python ${shellWord(resolve(python))}`;
  const reproduce = (index: number) => `basecamp sweep ${shellWord(resolve(file))} --cell ${index}${withPython}`;
  const rows: Omit<SweepRow, "rank">[] = [];
  const benchmarks = new Map<string, SweepBenchmark>();
  const report: SweepReport = {
    kind: cells[0]?.cell.kind ?? "backtest",
    sweep: file,
    cells: cells.length,
    unfinished: cells.length - finished.length,
    axes,
    rank_by: rankBy,
    rows: [],
    benchmarks: [],
    replays: [],
    failures: [],
  };
  for (const { index, outcome } of finished) {
    const { varied } = planned.get(index) as PlannedCell;
    if (!outcome.ok) {
      report.failures.push({ index, varied, reason: outcome.reason, traceback: outcome.traceback, reproduce: reproduce(index) });
      continue;
    }
    const result = outcome.result;
    if (result.kind === "replay") {
      report.replays.push({ index, varied, digest: result.digest, events: result.events, steps: result.steps, violations: result.violations, reproduce: reproduce(index) });
      continue;
    }
    rows.push({ index, varied, strategy: result.report.strategy, summary: result.report.summary, expeds: result.report.expeds });
    const bench = result.report.against[DESIGNATED_CONTENDER];
    const on = Object.fromEntries(axes.filter((a) => BENCHMARK_AXES.includes(a)).map((a) => [a, varied[a]]));
    const key = canonicalJson(on);
    if (bench && !benchmarks.has(key)) benchmarks.set(key, { on, summary: bench.summary, expeds: bench.expeds });
  }
  const sign = higherIsBetter(rankBy) ? -1 : 1;
  rows.sort((a, b) => sign * (metricValue(a.summary, rankBy) - metricValue(b.summary, rankBy)) || a.index - b.index);
  report.rows = rows.map((r, i) => ({ rank: i + 1, ...r }));
  report.benchmarks = [...benchmarks.values()];
  return report;
}

/** A word the shell reads back as it is: quoted when it holds anything but plain path characters. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}
