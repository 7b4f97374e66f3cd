/**
 * A backtest report as one self-contained HTML page: inline CSS and SVG charts drawn here, no
 * script, no network (its Content-Security-Policy forbids both). Every string from the report is
 * escaped: strategy names and refusal reasons come from users' files.
 */
import type { BacktestReport, ExpedScore } from "./backtest-report.js";
import { colourClass, STYLE } from "./backtest-page-style.js";
import { corrBars } from "./corr-bars.js";
import { cumulativeChart } from "./cumulative-chart.js";
import { cumulativeScores } from "./cumulative.js";
import { escapeHtml } from "./html-escape.js";
import { BENCHMARK, type NamedBacktest, strategiesOf } from "./strategy-order.js";
import { display, groupTitles, summaryColumns } from "./summary-columns.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export function renderBacktestHtml(report: BacktestReport): string {
  const strategies = strategiesOf(report);
  const name = escapeHtml(report.strategy);
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
${cumulativeSection(report)}
${corrSection(report)}
<h2>Summary</h2>
${summaryTable(strategies)}
<h2>${name} by exped</h2>
${expedsTable(report.expeds)}
${refusalsSection(strategies)}
</main>
</body>
</html>
`;
}

function context(report: BacktestReport): string {
  const { scenario, train_rows, validation_rows, weights, clip } = report.context;
  const { expeds, entered } = report.summary;
  const parts = [
    `scenario <b>${escapeHtml(scenario)}</b>`,
    `train ${train_rows} rows`,
    `validation ${validation_rows} rows`,
    `weights corr ${weights.corr}, aimc ${weights.aimc}, ncorr ${weights.ncorr}`,
    `clip ${clip}`,
    `${expeds} expeds walked, ${entered} entered`,
  ];
  return `<p class="context">${parts.join(" · ")}</p>`;
}

function cumulativeSection(report: BacktestReport): string {
  const { expeds, series } = cumulativeScores(report);
  const legend = series.map(
    (s, i) => `<li><span class="swatch ${colourClass(i)}"></span>${escapeHtml(s.name)} <b>${display(s.values[s.values.length - 1] ?? 0)}</b></li>`,
  );
  return `<h2>Cumulative score</h2>
<figure>${cumulativeChart(expeds, series)}
<ul class="legend" id="cumulative-legend">${legend.join("")}</ul></figure>
<p class="note">Round scores summed exped by exped; an exped not entered adds 0.</p>`;
}

function corrSection(report: BacktestReport): string {
  const benchmark = report.against[BENCHMARK];
  const corr = new Map(benchmark?.expeds.map((e) => [e.exped, e.corr]) ?? []);
  const legend = [
    `<li><span class="swatch pos"></span>${escapeHtml(report.strategy)} CORR &gt; 0</li>`,
    `<li><span class="swatch neg"></span>CORR &lt; 0</li>`,
    ...(benchmark ? [`<li><span class="swatch benchmark"></span>${BENCHMARK} CORR</li>`] : []),
    ...(report.expeds.some((e) => e.corr === null) ? [`<li><span class="swatch not-entered"></span>not entered</li>`] : []),
  ];
  return `<h2>CORR per exped</h2>
<figure>${corrBars(report.expeds, corr)}
<ul class="legend">${legend.join("")}</ul></figure>`;
}

/** A header row naming each run of columns' group over the columns' own names, then one row per strategy. */
function summaryTable(strategies: NamedBacktest[]): string {
  const groups: { title: string; span: number }[] = [];
  for (const c of summaryColumns) {
    const last = groups[groups.length - 1];
    if (last?.title === groupTitles[c.group]) last.span++;
    else groups.push({ title: groupTitles[c.group], span: 1 });
  }
  const head =
    `<tr class="groups"><th rowspan="2" class="name">strategy</th>${groups.map((g) => `<th colspan="${g.span}">${g.title}</th>`).join("")}</tr>` +
    `<tr>${summaryColumns.map((c) => `<th title="${escapeHtml(c.about)}">${c.label}</th>`).join("")}</tr>`;
  const rows = strategies.map(
    ({ name, backtest }, i) =>
      `<tr${i === 0 ? ` class="under-test"` : ""}><th scope="row"><span class="swatch ${colourClass(i)}"></span>${escapeHtml(name)}</th>` +
      summaryColumns.map((c) => `<td>${display(c.value(backtest.summary))}</td>`).join("") +
      "</tr>",
  );
  const note = `<p class="note">Means, std, Sharpe, max DD and hit rate are over the expeds each strategy entered; total sums every walked exped, one not entered counting 0.</p>`;
  return `<div class="table-wrap"><table id="summary-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>${note}`;
}

function expedsTable(expeds: ExpedScore[]): string {
  const rows = expeds.map((e) =>
    e.n === 0
      ? `<tr class="not-entered"><th scope="row">${escapeHtml(e.exped)}</th>${"<td>—</td>".repeat(5)}</tr>`
      : `<tr><th scope="row">${escapeHtml(e.exped)}</th><td>${e.n}</td>${[e.corr, e.aimc, e.ncorr, e.score].map((v) => `<td>${display(v)}</td>`).join("")}</tr>`,
  );
  const note = expeds.some((e) => e.n === 0) ? `<p class="note">— not entered (scores 0).</p>` : "";
  return `<div class="table-wrap"><table id="expeds-table"><thead><tr><th class="name">exped</th><th>n</th><th>corr</th><th>aimc</th><th>ncorr</th><th>score</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>${note}`;
}

function refusalsSection(strategies: NamedBacktest[]): string {
  const refused = strategies.filter(({ backtest }) => backtest.refusals.length > 0);
  const body =
    refused.length === 0
      ? `<p>None: every strategy entered every exped.</p>`
      : refused
          .map(
            ({ name, backtest }) =>
              `<h3>${escapeHtml(name)}</h3><ul>${backtest.refusals.map((r) => `<li><code>${escapeHtml(r.exped)}</code>: ${escapeHtml(r.reason)}</li>`).join("")}</ul>`,
          )
          .join("");
  return `<section id="refusals"><h2>Refusals</h2>${body}</section>`;
}
