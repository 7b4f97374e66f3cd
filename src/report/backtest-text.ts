/**
 * A backtest report for the terminal: the summary of every strategy, the strategy under test exped
 * by exped, a sparkline of each cumulative score on one common scale, and the refusals (first when
 * they dominate). Plain text, no colour, so it pipes cleanly. Lines fit `width` (100 by default):
 * names are cut to fit, down to 8 characters, below which a summary line runs over.
 */
import type { BacktestReport, ExpedScore } from "./backtest-report.js";
import { cumulativeScores } from "./cumulative.js";
import { domainWithZero } from "./scale.js";
import { lastOfBuckets, sparkline } from "./sparkline.js";
import { refusalRuns, refusalsDominate, runExpeds } from "./refusals-first.js";
import { BENCHMARK, strategiesOf } from "./strategy-order.js";
import { cell, display, statColumns, summaryColumns, summarySeries } from "./summary-columns.js";
import { type Align, len, MIN_NAME, pad, printable, roomForFirst, textTable, truncate, wrap } from "./text-layout.js";

/** The headline tables: one row per strategy. */
const HEADLINE_TABLES = [
  { caption: "per-exped means over the entered expeds; total = the score's sum over every walked exped:", labels: ["CORR", "AIMC", "NCORR", "score", "FN CORR", "TB CORR", "total"] },
  {
    caption:
      "the prediction: corr v1 = mean per-exped pearson(g(p), g(v1_designated)); bench corr = corr of CORR with v1_designated's; feature exposure, mean of each exped's max and pooled:",
    labels: ["corr v1", "bench corr", "exp mean", "exp pooled"],
  },
];

const STATS_CAPTION =
  "each series over the entered expeds, per exped, not annualised: smart = Sharpe / autocorrelation penalty; DD ex = expeds of the max drawdown; Calmar = mean / max DD; hit = share > 0; AC1 = lag-1 autocorrelation; Δ = minus v1_designated's:";

export function formatBacktestText(report: BacktestReport, opts: { width?: number } = {}): string {
  const width = opts.width ?? 100;
  const tables = [...headlineRows(report), ...seriesRows(report)];
  const nameWidth = Math.max(MIN_NAME, Math.min(...tables.map((rows) => roomForFirst(rows, width))));
  const first = refusalsDominate(report);
  const sections = [
    heading(report, width),
    first ? refusals(report, width) : [],
    summaryTables(report, nameWidth, width),
    topFeatures(report, width),
    expedTable(report, width),
    sparklines(report, nameWidth, width),
    first ? [] : refusals(report, width),
  ];
  return sections.filter((lines) => lines.length > 0).map((lines) => lines.join("\n")).join("\n\n") + "\n";
}

function heading(report: BacktestReport, width: number): string[] {
  const { scenario, train_rows, validation_rows, weights, clip } = report.context;
  const { expeds, entered } = report.summary;
  return [
    ...wrap(`backtest of ${report.strategy} on ${scenario}`, width, "  "),
    `train ${train_rows} rows, validation ${validation_rows} rows`,
    `weights corr ${weights.corr}, aimc ${weights.aimc}, ncorr ${weights.ncorr}; clip ${clip}`,
    `${expeds} expeds walked, ${entered} entered`,
  ];
}

/** The cells of each headline table, a header then one row per strategy. */
function headlineRows(report: BacktestReport): string[][][] {
  const strategies = strategiesOf(report);
  return HEADLINE_TABLES.map(({ labels }) => {
    const columns = labels.map((label) => summaryColumns.find((c) => c.label === label)!);
    return [["strategy", ...labels], ...strategies.map(({ name, backtest }) => [name, ...columns.map((c) => cell(c, backtest.summary))])];
  });
}

/** One table per series: a row per strategy, and under each but v1_designated a Δ row in the mean, std and Sharpe columns. */
function seriesRows(report: BacktestReport): string[][][] {
  const strategies = strategiesOf(report);
  return summarySeries.map(({ key, label }) => [
    [label, ...statColumns.map((c) => c.label)],
    ...strategies.flatMap(({ name, backtest }) => {
      const stats = backtest.summary[key];
      if (stats === null) return [[name, ...statColumns.map(() => "—")]];
      const own = [name, ...statColumns.map((c) => cell(c, stats))];
      if (name === BENCHMARK || stats.vs_benchmark === null) return [own];
      return [own, ["  Δ", ...statColumns.map((c) => (c.delta ? display(c.delta(stats)) : ""))]];
    }),
  ]);
}

function summaryTables(report: BacktestReport, nameWidth: number, width: number): string[] {
  const table = (rows: string[][]) => textTable(rows, ["left", ...rows[0].slice(1).map((): Align => "right")], nameWidth);
  const headline = headlineRows(report).flatMap((rows, i) => [...(i > 0 ? [""] : []), ...wrap(HEADLINE_TABLES[i].caption, width, ""), ...table(rows)]);
  const exposed = strategiesOf(report).flatMap(({ name, backtest }) => {
    const x = backtest.summary.feature_exposure;
    return x ? wrap(`${name}: most often each exped's max ${x.mean_max_feature}; pooled max ${x.pooled_max_feature}`, width - 2, "  ").map((l) => "  " + l) : [];
  });
  const features = exposed.length > 0 ? ["", "the features of the exposures:", ...exposed] : [];
  const series = seriesRows(report).flatMap((rows) => ["", ...table(rows)]);
  return [...headline, ...features, "", ...wrap(STATS_CAPTION, width, ""), ...series.slice(1)];
}

/** The strategy under test's features with the largest mean exposure. */
function topFeatures(report: BacktestReport, width: number): string[] {
  const top = report.summary.feature_exposure?.top ?? [];
  if (top.length === 0) return [];
  const rows = [["feature", "mean |corr|", "pooled |corr|"], ...top.map((f) => [f.feature, display(f.mean), display(f.pooled)])];
  return [
    ...wrap(`${report.strategy}'s ${top.length} features with the largest mean exposure (mean over expeds of |pearson(p, feature)|; pooled over all rows):`, width, "  "),
    ...textTable(rows, ["left", "right", "right"], roomForFirst(rows, width)),
  ];
}

function expedTable(report: BacktestReport, width: number): string[] {
  const notEntered = (e: ExpedScore) => e.n === 0;
  const terms = (e: ExpedScore) => [e.corr, e.aimc, e.ncorr, e.score, e.fn_corr, e.tb_corr, e.designated_corr, e.max_exposure?.value ?? null];
  const row = (e: ExpedScore) => (notEntered(e) ? [e.exped, "—", ...terms(e).map(() => "—")] : [e.exped, String(e.n), ...terms(e).map(display)]);
  const rows = [["exped", "n", "corr", "aimc", "ncorr", "score", "fn corr", "tb corr", "corr v1", "max exp"], ...report.expeds.map(row)];
  const note = report.expeds.some(notEntered) ? " (— not entered, scores 0)" : "";
  return [...wrap(`${report.strategy} by exped${note}:`, width, "  "), ...textTable(rows, ["left", ...rows[0].slice(1).map((): Align => "right")], roomForFirst(rows, width))];
}

/** Name, one block per exped (or per bucket of expeds when they do not fit), the final cumulative score. */
function sparklines(report: BacktestReport, nameWidth: number, width: number): string[] {
  const { expeds, series } = cumulativeScores(report);
  if (expeds.length === 0) return [];
  const domain = domainWithZero(series.flatMap((s) => s.values));
  const finals = series.map((s) => display(s.values[s.values.length - 1]));
  const finalWidth = Math.max(...finals.map(len));
  const names = series.map((s) => printable(s.name));
  const nameCol = Math.min(nameWidth, Math.max(...names.map(len)));
  const blocks = Math.max(1, Math.min(expeds.length, width - nameCol - finalWidth - 4));
  const per = blocks === expeds.length ? "one block per exped" : `${blocks} blocks for ${expeds.length} expeds`;
  return [
    ...wrap(`cumulative score, ${per}, common scale ${display(domain.min)} to ${display(domain.max)}:`, width, ""),
    ...series.map((s, i) => `${pad(truncate(names[i], nameCol), nameCol, "left")}  ${sparkline(lastOfBuckets(s.values, blocks), domain)}  ${pad(finals[i], finalWidth, "right")}`),
  ];
}

function refusals(report: BacktestReport, width: number): string[] {
  const refused = strategiesOf(report).filter(({ backtest }) => backtest.refusals.length > 0);
  if (refused.length === 0) return [];
  return [
    "refusals:",
    ...refused.flatMap(({ name, backtest }) => [
      truncate(printable(name), width),
      ...refusalRuns(backtest.refusals).flatMap((r) => wrap(`${runExpeds(r)}: ${r.reason}`, width - 2, "  ").map((line) => "  " + line)),
    ]),
  ];
}
