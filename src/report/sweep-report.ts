/**
 * What a sweep reports: its backtest cells ranked by one metric beside the designated benchmark,
 * or its replays (a swarm) with any broken invariant and the command that reproduces it; and the
 * cells that failed. `basecamp sweep --json` prints this object; the text and HTML faces render it.
 */
import type { BacktestSummary, ExpedScore, SeriesStats } from "./backtest-report.js";

/** A backtest cell's place on the leaderboard. */
export interface SweepRow {
  rank: number;
  /** The cell's place in the sweep. */
  index: number;
  /** The value of each axis that varies. */
  varied: Record<string, unknown>;
  strategy: string;
  summary: BacktestSummary;
  expeds: ExpedScore[];
}

/** v1_designated on one dataset, seed and scoring setting (the reference row of the cells that share them). */
export interface SweepBenchmark {
  /** The varied axes that decide the benchmark's numbers (scenario, dataset, scoring, seed). */
  on: Record<string, unknown>;
  summary: BacktestSummary;
  expeds: ExpedScore[];
}

/** A replay cell of a swarm. */
export interface SweepReplay {
  index: number;
  varied: Record<string, unknown>;
  digest: string;
  events: number;
  steps: number;
  violations: { invariant: string; step: number; detail: string }[];
  /** The one-line command that runs this cell alone, with its checks. */
  reproduce: string;
}

export interface SweepFailure {
  index: number;
  varied: Record<string, unknown>;
  reason: string;
  traceback: string;
  reproduce: string;
}

export interface SweepReport {
  kind: "backtest" | "replay";
  sweep: string;
  /** Cells in the sweep, and those not finished (a sweep stopped part-way). */
  cells: number;
  unfinished: number;
  /** The axes that vary, in the sweep's order. */
  axes: string[];
  rank_by: RankMetric;
  rows: SweepRow[];
  benchmarks: SweepBenchmark[];
  replays: SweepReplay[];
  failures: SweepFailure[];
}

export const TERMS = ["corr", "aimc", "ncorr", "score"] as const;
const STATS = ["mean", "std", "sharpe", "max_drawdown", "hit_rate", "total"] as const;
export type Term = (typeof TERMS)[number];
type Stat = (typeof STATS)[number];

/** The statistics the leaderboard shows of each term. */
export const SHOWN_STATS = ["mean", "std", "sharpe", "max_drawdown"] as const;
export type ShownStat = (typeof SHOWN_STATS)[number];

/** A summary figure to rank by, `term.stat`: higher first, but lower first for std and max_drawdown. */
export type RankMetric = `${Term}.${Stat}`;

export const DEFAULT_RANK_METRIC: RankMetric = "score.mean";

export function parseRankMetric(text: string): RankMetric {
  const [term, stat, ...more] = text.split(".");
  const ok = more.length === 0 && TERMS.includes(term as Term) && STATS.includes(stat as Stat) && (stat !== "total" || term === "score");
  if (!ok) throw new Error(`--rank-by: expected TERM.STAT with TERM one of ${TERMS.join(", ")} and STAT one of ${STATS.join(", ")} (total for score only), got '${text}'`);
  return text as RankMetric;
}

/**
 * Whether the leaderboard shows how many expeds each cell entered: when some cell entered fewer
 * than it walked (its predictions refused, a round missed), whose statistics then cover fewer
 * expeds than its neighbours' (a cell that entered none has every statistic 0).
 */
export function showsEntered(report: SweepReport): boolean {
  return report.rows.some((row) => row.summary.entered < row.summary.expeds);
}

/** A cell's expeds entered of those walked: "28/30". */
export const enteredText = (s: BacktestSummary): string => `${s.entered}/${s.expeds}`;

export function metricValue(summary: BacktestSummary, metric: RankMetric): number {
  const [term, stat] = metric.split(".") as [Term, Stat];
  return (summary[term] as SeriesStats & { total?: number })[stat] as number;
}

const isShown = (stat: Stat): stat is ShownStat => (SHOWN_STATS as readonly Stat[]).includes(stat);

/** The ranking metric's term and statistic when the leaderboard's statistics leave it out (hit_rate, total), so that it gets a column of its own; null when it is among them. */
export function unshownRankMetric(metric: RankMetric): { term: Term; stat: Exclude<Stat, ShownStat> } | null {
  const [term, stat] = metric.split(".") as [Term, Stat];
  return isShown(stat) ? null : { term, stat };
}

/** Whether a larger value ranks higher. */
export function higherIsBetter(metric: RankMetric): boolean {
  return !metric.endsWith(".std") && !metric.endsWith(".max_drawdown");
}

/** Whether a sweep's report holds a failed cell or a replay that broke an invariant: `basecamp sweep` then exits 1, after its report. */
export function sweepFailed(report: SweepReport): boolean {
  return report.failures.length > 0 || report.replays.some((r) => r.violations.length > 0);
}
