/**
 * A sweep's report for the terminal. Backtests: the leaderboard, one row per cell ranked by the
 * chosen metric, the varied axes as columns, then mean/std/Sharpe/max drawdown of CORR, AIMC, NCORR
 * and the score, with v1_designated's row per dataset and seed as the reference. Replays: each
 * broken invariant with the command that reproduces it. Then the failed cells. Plain text.
 */
import type { BacktestSummary } from "./backtest-report.js";
import { display } from "./summary-columns.js";
import type { SweepReport } from "./sweep-report.js";
import { textTable } from "./text-layout.js";

const TERMS = [
  ["corr", "CORR"],
  ["aimc", "AIMC"],
  ["ncorr", "NCORR"],
  ["score", "score"],
] as const;
const STATS = [
  ["mean", ""],
  ["std", " std"],
  ["sharpe", " Shp"],
  ["max_drawdown", " DD"],
] as const;

/** An axis value as a column shows it. */
export const axisValue = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Axes and their values as the sweep's messages give them: "alpha 0.1, seed 2" ("" for none). */
export function variedText(varied: Record<string, unknown>): string {
  return Object.entries(varied)
    .map(([axis, value]) => `${axis} ${axisValue(value)}`)
    .join(", ");
}

/** A cell as the sweep's messages name it: "cell 3 (alpha 0.1, seed 2)", or "cell 3" when nothing varies. */
export function cellLabel(index: number, varied: Record<string, unknown>): string {
  const values = variedText(varied);
  return values === "" ? `cell ${index}` : `cell ${index} (${values})`;
}

export function formatSweepText(report: SweepReport): string {
  const sections = report.kind === "backtest" ? [heading(report), leaderboard(report)] : [heading(report), swarm(report)];
  sections.push(failures(report));
  return sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n")).join("\n\n") + "\n";
}

function heading(r: SweepReport): string[] {
  const done = r.cells - r.unfinished;
  return [
    `sweep ${r.sweep}: ${r.kind === "backtest" ? "backtests" : "replays"}, ${done} of ${r.cells} cells finished, ${r.failures.length} failed`,
    ...(r.kind === "backtest" ? [`ranked by ${r.rank_by}; varied: ${r.axes.length === 0 ? "nothing" : r.axes.join(", ")}`] : []),
  ];
}

function figures(s: BacktestSummary): string[] {
  return TERMS.flatMap(([term]) => STATS.map(([stat]) => display(s[term][stat])));
}

function leaderboard(r: SweepReport): string[] {
  const header = ["rank", "cell", ...r.axes, ...TERMS.flatMap(([, t]) => STATS.map(([, s]) => t + s))];
  const rows = r.rows.map((row) => [String(row.rank), String(row.index), ...r.axes.map((a) => axisValue(row.varied[a])), ...figures(row.summary)]);
  const bench = r.benchmarks.map((b) => ["ref", "—", ...r.axes.map((a) => (a in b.on ? axisValue(b.on[a]) : a === "strategy" ? "v1_designated" : "—")), ...figures(b.summary)]);
  const table = [header, ...rows, ...bench];
  const lines = textTable(table, table[0].map((_, i) => (i >= 2 && i < 2 + r.axes.length ? "left" : "right")), 4);
  const note = "ref = v1_designated on the same scenario, dataset, scoring and seed; Shp = Sharpe, DD = max drawdown (per-exped series)";
  return r.rows.length === 0 ? ["no backtest finished"] : [...lines, "", note];
}

function swarm(r: SweepReport): string[] {
  const broken = r.replays.filter((p) => p.violations.length > 0);
  const digests = new Set(r.replays.map((p) => p.digest)).size;
  const lines = [`${r.replays.length} replays checked after every step: ${broken.length} broke an invariant; ${digests} distinct event-log digests`];
  for (const p of broken) {
    lines.push("", `${cellLabel(p.index, p.varied)}:`);
    for (const v of p.violations) lines.push(`  ${v.invariant}, after step ${v.step}: ${v.detail}`);
    lines.push(`  reproduce: ${p.reproduce}`);
  }
  return lines;
}

function failures(r: SweepReport): string[] {
  if (r.failures.length === 0) return [];
  return [
    "failed cells:",
    ...r.failures.flatMap((f) => [`${cellLabel(f.index, f.varied)}: ${f.reason.split("\n")[0]}`, `  reproduce: ${f.reproduce}`]),
  ];
}
