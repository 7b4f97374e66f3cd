/**
 * A backtest report as one self-contained HTML page: inline CSS and SVG charts drawn here, no
 * script, no network (its Content-Security-Policy forbids both). Every string from the report is
 * escaped: strategy names and refusal reasons come from users' files.
 */
import type { BacktestReport } from "./backtest-report.js";
import { colourClass, STYLE } from "./backtest-page-style.js";
import { cumulativeScores } from "./cumulative.js";
import { escapeHtml } from "./html-escape.js";
import { expedsTable, exposureSection, refusalsSection, seriesTable, summaryTable } from "./html-tables.js";
import { coincidenceTolerance, coincidingSeries, DASHES, lineChart, type LineSeries } from "./line-chart.js";
import { refusalsDominate } from "./refusals-first.js";
import { drawdownSeries, rollingMeanSeries, rollingSharpeSeries } from "./score-curves.js";
import { BENCHMARK, strategiesOf } from "./strategy-order.js";
import { display } from "./summary-columns.js";
import { termBars, type TermBars } from "./term-bars.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** The terms drawn per exped, each with v1_designated's as ticks. */
const TERMS: TermBars[] = [
  { id: "corr-bars", label: "CORR", value: (e) => e.corr },
  { id: "aimc-bars", label: "AIMC", value: (e) => e.aimc },
  { id: "ncorr-bars", label: "NCORR", value: (e) => e.ncorr },
  { id: "score-bars", label: "score", value: (e) => (e.corr === null ? null : e.score) },
];

export function renderBacktestHtml(report: BacktestReport): string {
  const strategies = strategiesOf(report);
  const name = escapeHtml(report.strategy);
  const first = refusalsDominate(report);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Backtest: ${name}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Backtest: ${name}</h1>
${context(report)}
${first ? refusalsSection(strategies, report.expeds.length, true) : ""}
${cumulativeSection(report)}
${termsSection(report)}
${curvesSection(report)}
<h2>Summary</h2>
${summaryTable(strategies)}
<h2>Each series</h2>
${seriesTable(strategies)}
${exposureSection(report, strategies)}
<h2>${name} by exped</h2>
${expedsTable(report.expeds)}
${first ? "" : refusalsSection(strategies, report.expeds.length, false)}
</main>
</body>
</html>
`;
}

function context(report: BacktestReport): string {
  const { scenario, train_rows, validation_rows, weights, clip, top_bottom, rolling_window } = report.context;
  const { expeds, entered } = report.summary;
  const parts = [
    `scenario <b>${escapeHtml(scenario)}</b>`,
    `train ${train_rows} rows`,
    `validation ${validation_rows} rows`,
    `weights corr ${weights.corr}, aimc ${weights.aimc}, ncorr ${weights.ncorr}`,
    `clip ${clip}`,
    `${expeds} expeds walked, ${entered} entered`,
    `top/bottom ${top_bottom < 1 ? `${top_bottom} of each exped's rows` : `${top_bottom} rows`} at each end`,
    `rolling window ${rolling_window} expeds`,
  ];
  return `<p class="context">${parts.join(" · ")}</p>`;
}

/** A legend item's key: a short stretch of the series' line, with its dash pattern and marker. */
function key(i: number): string {
  const shape = ["<circle cx=\"14\" cy=\"5\" r=\"3\"/>", "<rect x=\"11\" y=\"2\" width=\"6\" height=\"6\"/>", "<path d=\"M14,1l4,7h-8z\"/>", "<path d=\"M14,1l4,4l-4,4l-4,-4z\"/>"][i % 4];
  return `<svg class="key ${colourClass(i)} dash${i % DASHES}" viewBox="0 0 28 10" aria-hidden="true"><line x1="0" x2="28" y1="5" y2="5"/>${shape}</svg>`;
}

/** A legend of the strategies (with each one's last value), and a note naming series that coincide. */
function lineLegend(series: LineSeries[], id?: string): string {
  const items = series.map((s, i) => {
    const last = [...s.values].reverse().find((v) => v !== null) ?? null;
    return `<li>${key(i)}${escapeHtml(s.name)} <b>${display(last)}</b></li>`;
  });
  const tolerance = coincidenceTolerance(series);
  const same = coincidingSeries(series, tolerance).map(({ names, exact }) => {
    const how = exact ? "have the same values here" : `lie within ${display(tolerance).slice(1)} of each other here`;
    return `<p class="note coincide">${names.map(escapeHtml).join(" and ")} ${how}: their lines lie on each other, told apart by dashes and markers.</p>`;
  });
  return `<ul class="legend"${id ? ` id="${id}"` : ""}>${items.join("")}</ul>${same.join("")}`;
}

function cumulativeSection(report: BacktestReport): string {
  const { expeds, series } = cumulativeScores(report);
  return `<h2>Cumulative score</h2>
<figure>${lineChart("cumulative-chart", "Cumulative score per strategy over the expeds", "cumulative score", expeds, series)}
${lineLegend(series, "cumulative-legend")}</figure>
<p class="note">Round scores summed exped by exped; an exped not entered adds 0.</p>`;
}

function termsSection(report: BacktestReport): string {
  const benchmark = report.against[BENCHMARK];
  const charts = TERMS.map((term) => {
    const ticks = new Map(benchmark?.expeds.map((e) => [e.exped, term.value(e)]) ?? []);
    const legend = [
      `<li><span class="swatch pos"></span>${escapeHtml(report.strategy)} ${term.label} &gt; 0</li>`,
      `<li><span class="swatch neg"></span>${term.label} &lt; 0</li>`,
      ...(benchmark ? [`<li><span class="swatch benchmark"></span>${BENCHMARK} ${term.label}</li>`] : []),
      ...(report.expeds.some((e) => e.corr === null) ? [`<li><span class="swatch not-entered"></span>not entered</li>`] : []),
    ];
    return `<h3>${term.label}</h3><figure>${termBars(term, report.expeds, ticks)}<ul class="legend">${legend.join("")}</ul></figure>`;
  });
  return `<h2>Per exped, against ${BENCHMARK}</h2>\n${charts.join("\n")}`;
}

function curvesSection(report: BacktestReport): string {
  const w = report.context.rolling_window;
  const chart = (id: string, title: string, yTitle: string, { expeds, series }: { expeds: string[]; series: LineSeries[] }) =>
    `<figure>${lineChart(id, title, yTitle, expeds, series)}${lineLegend(series)}</figure>`;
  const short = report.summary.entered < w ? `<p class="note">Fewer entered expeds (${report.summary.entered}) than the window: no rolling values.</p>` : "";
  return `<h2>Drawdown of the cumulative score</h2>
${chart("drawdown-chart", "Drawdown: the cumulative score's fall below its running peak, over the entered expeds", "drawdown", drawdownSeries(report))}
<p class="note">Additive: cumulative score minus its running peak. The summary's max DD is the deepest point; DD ex counts the expeds from that peak to its recovery.</p>
<h2>Rolling mean of the score (${w} expeds)</h2>
${chart("rolling-mean-chart", `Rolling mean of the round score over ${w} entered expeds`, "rolling mean", rollingMeanSeries(report))}${short}
<h2>Rolling Sharpe of the score (${w} expeds)</h2>
${chart("rolling-sharpe-chart", `Rolling Sharpe (mean / std) of the round score over ${w} entered expeds`, "rolling Sharpe", rollingSharpeSeries(report))}${short}`;
}
