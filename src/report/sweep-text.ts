/**
 * A sweep's report for the terminal. Backtests: the leaderboard, one row per cell ranked by the
 * chosen metric, the varied axes as columns, the metric itself when it is not among the statistics
 * shown (a hit rate, the score's total), then mean/std/Sharpe/max drawdown of CORR, AIMC, NCORR
 * and the score, with v1_designated's row per dataset and seed as the reference. Replays: each
 * broken invariant with the command that reproduces it. Then the failed cells. Plain text.
 */
import type { BacktestSummary } from "./backtest-report.js";
import { display } from "./summary-columns.js";
import { enteredText, metricValue, type RankMetric, SHOWN_STATS, type ShownStat, showsEntered, type SweepReport, type Term, TERMS, unshownRankMetric } from "./sweep-report.js";
import { textTable } from "./text-layout.js";

/** What follows a term's name in a statistic's header ("CORR std"). */
const STAT_SUFFIX: Record<ShownStat, string> = { mean: "", std: " std", sharpe: " Shp", max_drawdown: " DD" };

/** A term as the leaderboards head it: CORR, AIMC, NCORR, score. */
export const termLabel = (term: Term): string => (term === "score" ? term : term.toUpperCase());

/** The most characters of an axis value a column or message shows: a value past it is cut in the middle, at "…". */
const AXIS_VALUE_CHARS = 100;

/**
 * An axis value as a column shows it (a string as it is, anything else as JSON), cut to
 * AXIS_VALUE_CHARS: its start and its end, where long values that share a start (JSON of settings
 * differing in their last field, paths differing in their file) still differ.
 */
export function axisValue(v: unknown): string {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  if (text.length <= AXIS_VALUE_CHARS) return text;
  const head = Math.ceil((AXIS_VALUE_CHARS - 1) / 2);
  return `${text.slice(0, head)}…${text.slice(text.length - (AXIS_VALUE_CHARS - 1 - head))}`;
}

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

/** The columns after the axes: the ranking metric when the statistics leave it out ("score total"), then each term's statistics. */
function figureColumns(metric: RankMetric): { header: string[]; figures: (s: BacktestSummary) => string[] } {
  const header = TERMS.flatMap((term) => SHOWN_STATS.map((stat) => termLabel(term) + STAT_SUFFIX[stat]));
  const figures = (s: BacktestSummary) => TERMS.flatMap((term) => SHOWN_STATS.map((stat) => display(s[term][stat])));
  const ranked = unshownRankMetric(metric);
  if (!ranked) return { header, figures };
  return {
    header: [`${termLabel(ranked.term)} ${ranked.stat === "hit_rate" ? "hit" : ranked.stat}`, ...header],
    figures: (s) => [display(metricValue(s, metric)), ...figures(s)],
  };
}

function leaderboard(r: SweepReport): string[] {
  const { header: figureHeader, figures } = figureColumns(r.rank_by);
  const withEntered = showsEntered(r);
  const entered = (s: BacktestSummary) => (withEntered ? [enteredText(s)] : []);
  const header = ["rank", "cell", ...r.axes, ...(withEntered ? ["entered"] : []), ...figureHeader];
  const rows = r.rows.map((row) => [String(row.rank), String(row.index), ...r.axes.map((a) => axisValue(row.varied[a])), ...entered(row.summary), ...figures(row.summary)]);
  const bench = r.benchmarks.map((b) => ["ref", "—", ...r.axes.map((a) => (a in b.on ? axisValue(b.on[a]) : a === "strategy" ? "v1_designated" : "—")), ...entered(b.summary), ...figures(b.summary)]);
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
