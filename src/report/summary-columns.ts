/**
 * The summary's columns, shared by the terminal table and the HTML page so both show the same
 * numbers under the same names. Display rounds; the report keeps full precision.
 */
import type { BacktestSummary } from "./backtest-report.js";

/** A number with its sign and 4 decimals (+0.0123, -0.0040); "—" where there is none. */
export const display = (x: number | null): string => (x === null ? "—" : (x >= 0 ? "+" : "") + x.toFixed(4));

type ColumnGroup = "mean" | "score" | "sum" | "diagnostic";

/** What each group's numbers are, for table headers. */
export const groupTitles: Record<ColumnGroup, string> = {
  mean: "per-exped means",
  score: "score over the entered expeds",
  sum: "sum",
  diagnostic: "diagnostics",
};

interface SummaryColumn {
  label: string;
  group: ColumnGroup;
  /** What the column is, in one phrase (the HTML header's tooltip). */
  about: string;
  value: (s: BacktestSummary) => number | null;
}

export const summaryColumns: SummaryColumn[] = [
  { label: "CORR", group: "mean", about: "mean CORR over the entered expeds", value: (s) => s.corr.mean },
  { label: "AIMC", group: "mean", about: "mean AIMC over the entered expeds", value: (s) => s.aimc.mean },
  { label: "NCORR", group: "mean", about: "mean NCORR over the entered expeds", value: (s) => s.ncorr.mean },
  { label: "score", group: "mean", about: "mean round score over the entered expeds", value: (s) => s.score.mean },
  { label: "std", group: "score", about: "population std of the round score", value: (s) => s.score.std },
  { label: "Sharpe", group: "score", about: "mean / std of the round score (0 when std is 0)", value: (s) => s.score.sharpe },
  { label: "max DD", group: "score", about: "max drawdown of the cumulative round score", value: (s) => s.score.max_drawdown },
  { label: "hit rate", group: "score", about: "share of entered expeds with a score > 0", value: (s) => s.score.hit_rate },
  { label: "total", group: "sum", about: "round score summed over every walked exped (not entered counts 0)", value: (s) => s.score.total },
  { label: "feat exp", group: "diagnostic", about: "feature exposure: max |pearson(prediction, feature)|", value: (s) => s.feature_exposure },
  { label: "bench corr", group: "diagnostic", about: "pearson of the per-exped CORR with v1_designated's", value: (s) => s.benchmark_corr },
];
