/** Where the refusals go: at the top of a report when they dominate it, so a walk that mostly failed says why before its empty rows. */
import type { BacktestReport, Refusal } from "./backtest-report.js";
import { strategiesOf } from "./strategy-order.js";

/** True when some strategy was refused at least half of the walked expeds. */
export function refusalsDominate(report: BacktestReport): boolean {
  const walked = report.expeds.length;
  return walked > 0 && strategiesOf(report).some(({ backtest }) => 2 * backtest.refusals.length >= walked);
}

/** A run of consecutive refusals with one reason: the first and last exped, how many, and the reason. */
export interface RefusalRun {
  from: string;
  to: string;
  count: number;
  reason: string;
}

/** Refusals in order, each run of consecutive ones with the same reason as one (a walk that failed throughout says why once). */
export function refusalRuns(refusals: Refusal[]): RefusalRun[] {
  const runs: RefusalRun[] = [];
  for (const r of refusals) {
    const last = runs[runs.length - 1];
    if (last?.reason === r.reason) [last.to, last.count] = [r.exped, last.count + 1];
    else runs.push({ from: r.exped, to: r.exped, count: 1, reason: r.reason });
  }
  return runs;
}

/** Where a run applies: one exped, or "first to last (n expeds)". */
export const runExpeds = (run: RefusalRun): string => (run.count === 1 ? run.from : `${run.from} to ${run.to} (${run.count} expeds)`);
