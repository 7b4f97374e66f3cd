/**
 * A backtest report for the terminal: the summary of every strategy, the strategy under test exped
 * by exped, a sparkline of each cumulative score on one common scale, and the refusals. Plain text,
 * no colour, so it pipes cleanly. Lines fit `width` (80 by default): names are cut to fit, down
 * to 8 characters, below which a summary line runs over.
 */
import type { BacktestReport, ExpedScore } from "./backtest-report.js";
import { cumulativeScores } from "./cumulative.js";
import { domainWithZero } from "./scale.js";
import { lastOfBuckets, sparkline } from "./sparkline.js";
import { strategiesOf } from "./strategy-order.js";
import { display, summaryColumns } from "./summary-columns.js";
import { type Align, len, MIN_NAME, pad, printable, roomForFirst, textTable, truncate, wrap } from "./text-layout.js";

/** Eleven columns of signed 4-decimal numbers do not fit 80 columns in one table: the summary is two. */
const SUMMARY_TABLES = [
  { caption: "per-exped means, and the std and Sharpe of the score:", labels: ["CORR", "AIMC", "NCORR", "score", "std", "Sharpe"] },
  {
    caption: "the score's max drawdown and hit rate; total = its sum over every walked exped; feature exposure; corr of CORR with v1_designated's:",
    labels: ["max DD", "hit rate", "total", "feat exp", "bench corr"],
  },
];

export function formatBacktestText(report: BacktestReport, opts: { width?: number } = {}): string {
  const width = opts.width ?? 80;
  const names = summaryRows(report);
  const nameWidth = Math.max(MIN_NAME, Math.min(...names.map((rows) => roomForFirst(rows, width))));
  const sections = [heading(report, width), summaryTables(names, nameWidth, width), expedTable(report, width), sparklines(report, nameWidth, width), refusals(report, width)];
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

/** The cells of each summary table, a header then one row per strategy. */
function summaryRows(report: BacktestReport): string[][][] {
  const strategies = strategiesOf(report);
  return SUMMARY_TABLES.map(({ labels }) => {
    const columns = labels.map((label) => summaryColumns.find((c) => c.label === label)!);
    return [["strategy", ...labels], ...strategies.map(({ name, backtest }) => [name, ...columns.map((c) => display(c.value(backtest.summary)))])];
  });
}

function summaryTables(tables: string[][][], nameWidth: number, width: number): string[] {
  return tables.flatMap((rows, i) => [
    ...(i > 0 ? [""] : []),
    ...wrap(SUMMARY_TABLES[i].caption, width, ""),
    ...textTable(rows, ["left", ...rows[0].slice(1).map((): Align => "right")], nameWidth),
  ]);
}

function expedTable(report: BacktestReport, width: number): string[] {
  const notEntered = (e: ExpedScore) => e.n === 0;
  const row = (e: ExpedScore) =>
    notEntered(e) ? [e.exped, "—", "—", "—", "—", "—"] : [e.exped, String(e.n), display(e.corr), display(e.aimc), display(e.ncorr), display(e.score)];
  const rows = [["exped", "n", "corr", "aimc", "ncorr", "score"], ...report.expeds.map(row)];
  const note = report.expeds.some(notEntered) ? " (— not entered, scores 0)" : "";
  return [...wrap(`${report.strategy} by exped${note}:`, width, "  "), ...textTable(rows, ["left", "right", "right", "right", "right", "right"], roomForFirst(rows, width))];
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
      ...backtest.refusals.flatMap((r) => wrap(`${r.exped}: ${r.reason}`, width - 2, "  ").map((line) => "  " + line)),
    ]),
  ];
}
