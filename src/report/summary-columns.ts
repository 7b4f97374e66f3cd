/**
 * The summary's columns, shared by the terminal tables and the HTML page so both show the same
 * numbers under the same names. Display rounds; the report keeps full precision.
 */
import type { BacktestSummary, SeriesStats } from "./backtest-report.js";

/** A number with its sign and 4 decimals (+0.0123, -0.0040); "—" where there is none. */
export const display = (x: number | null): string => (x === null ? "—" : (x >= 0 ? "+" : "") + x.toFixed(4));

type ColumnGroup = "mean" | "sum" | "prediction";

/** What each group's numbers are, for table headers. */
export const groupTitles: Record<ColumnGroup, string> = {
  mean: "per-exped means",
  sum: "sum",
  prediction: "the prediction",
};

interface Column<T> {
  label: string;
  /** What the column is, in one phrase (the HTML header's tooltip). */
  about: string;
  value: (s: T) => number | null;
  /** How a value shows (default `display`). */
  format?: (x: number | null) => string;
}

/** A cell's text. */
export const cell = <T>(c: Column<T>, s: T): string => (c.format ?? display)(c.value(s));

/** The headline table: one row per strategy. */
export const summaryColumns: (Column<BacktestSummary> & { group: ColumnGroup })[] = [
  { label: "CORR", group: "mean", about: "mean CORR over the entered expeds", value: (s) => s.corr.mean },
  { label: "AIMC", group: "mean", about: "mean AIMC over the entered expeds", value: (s) => s.aimc.mean },
  { label: "NCORR", group: "mean", about: "mean NCORR over the entered expeds", value: (s) => s.ncorr.mean },
  { label: "score", group: "mean", about: "mean round score over the entered expeds", value: (s) => s.score.mean },
  { label: "FN CORR", group: "mean", about: "mean CORR neutralised against every published feature", value: (s) => s.fn_corr?.mean ?? null },
  { label: "TB CORR", group: "mean", about: "mean CORR of the top and bottom rows by prediction", value: (s) => s.tb_corr.mean },
  { label: "total", group: "sum", about: "round score summed over every walked exped (not entered counts 0)", value: (s) => s.score.total },
  { label: "corr v1", group: "prediction", about: "mean over expeds of pearson(g(prediction), g(v1_designated))", value: (s) => s.designated_corr },
  { label: "bench corr", group: "prediction", about: "pearson of the per-exped CORR with v1_designated's", value: (s) => s.benchmark_corr },
  { label: "exp mean", group: "prediction", about: "feature exposure: mean over expeds of each exped's max |pearson(prediction, feature)|", value: (s) => s.feature_exposure?.mean_max ?? null },
  { label: "exp pooled", group: "prediction", about: "feature exposure: max |pearson(prediction, feature)| over all rows pooled", value: (s) => s.feature_exposure?.pooled_max ?? null },
];

/** The series whose statistics the summary gives, each in a table of its own. */
export const summarySeries: { key: "corr" | "aimc" | "ncorr" | "score" | "fn_corr" | "tb_corr"; label: string; about: string }[] = [
  { key: "corr", label: "CORR", about: "CORR per exped" },
  { key: "aimc", label: "AIMC", about: "AIMC per exped" },
  { key: "ncorr", label: "NCORR", about: "NCORR (neutral to the core features) per exped" },
  { key: "score", label: "score", about: "the blended round score per exped" },
  { key: "fn_corr", label: "FN CORR", about: "CORR neutralised against every published feature, per exped" },
  { key: "tb_corr", label: "TB CORR", about: "CORR of the top and bottom rows by prediction, per exped" },
];

const count = (x: number | null): string => (x === null ? "—" : String(x));

/** The statistics of one series, over the entered expeds; `delta` marks those that have a difference against v1_designated's. */
export const statColumns: (Column<SeriesStats> & { delta?: (s: SeriesStats) => number | null })[] = [
  { label: "mean", about: "mean over the entered expeds", value: (s) => s.mean, delta: (s) => s.vs_benchmark?.mean ?? null },
  { label: "std", about: "population std (ddof 0)", value: (s) => s.std, delta: (s) => s.vs_benchmark?.std ?? null },
  { label: "Sharpe", about: "mean / std, per exped, not annualised", value: (s) => s.sharpe, delta: (s) => s.vs_benchmark?.sharpe ?? null },
  { label: "smart", about: "smart Sharpe: Sharpe / √(1 + 2·Σ ((n-i)/n)·ρ^i), ρ the lag-1 autocorrelation", value: (s) => s.smart_sharpe },
  { label: "max DD", about: "max drawdown of the cumulative sum (additive)", value: (s) => s.max_drawdown },
  { label: "DD ex", about: "expeds from the peak before the max drawdown to its recovery (or the last exped)", value: (s) => s.max_drawdown_expeds, format: count },
  { label: "Calmar", about: "mean / max drawdown, both per exped", value: (s) => s.calmar },
  { label: "hit", about: "share of entered expeds > 0", value: (s) => s.hit_rate },
  { label: "AC1", about: "lag-1 autocorrelation", value: (s) => s.autocorrelation },
];
