/** The HTML report's tables (summary, each series, exposure, per exped, refusals), every string from the report escaped. */
import type { BacktestReport, ExpedScore } from "./backtest-report.js";
import { colourClass } from "./backtest-page-style.js";
import { exposureChart } from "./exposure-chart.js";
import { escapeHtml } from "./html-escape.js";
import { refusalRuns, runExpeds } from "./refusals-first.js";
import { BENCHMARK, type NamedBacktest } from "./strategy-order.js";
import { cell, display, groupTitles, statColumns, summaryColumns, summarySeries } from "./summary-columns.js";

/** A header row naming each run of columns' group over the columns' own names, then one row per strategy. */
export function summaryTable(strategies: NamedBacktest[]): string {
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
      summaryColumns.map((c) => `<td>${cell(c, backtest.summary)}</td>`).join("") +
      "</tr>",
  );
  const note = `<p class="note">Means are over the expeds each strategy entered; total sums every walked exped, one not entered counting 0. Definitions: docs/scoring.md.</p>`;
  return `<div class="table-wrap"><table id="summary-table"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table></div>${note}`;
}

/** One block of rows per series: its name, then a row per strategy and, under each but v1_designated, a Δ row (minus v1_designated's) in the mean, std and Sharpe columns. */
export function seriesTable(strategies: NamedBacktest[]): string {
  const head = `<tr><th class="name">series / strategy</th>${statColumns.map((c) => `<th title="${escapeHtml(c.about)}">${c.label}</th>`).join("")}</tr>`;
  const blocks = summarySeries.map(({ key, label, about }) => {
    const rows = strategies.flatMap(({ name, backtest }, i) => {
      const stats = backtest.summary[key];
      if (stats === null) return [`<tr><th scope="row"><span class="swatch ${colourClass(i)}"></span>${escapeHtml(name)}</th>${"<td>—</td>".repeat(statColumns.length)}</tr>`];
      const own = `<tr${i === 0 ? ` class="under-test"` : ""}><th scope="row"><span class="swatch ${colourClass(i)}"></span>${escapeHtml(name)}</th>${statColumns.map((c) => `<td>${cell(c, stats)}</td>`).join("")}</tr>`;
      if (name === BENCHMARK || stats.vs_benchmark === null) return [own];
      return [own, `<tr class="delta"><th scope="row">Δ vs ${BENCHMARK}</th>${statColumns.map((c) => `<td>${c.delta ? display(c.delta(stats)) : ""}</td>`).join("")}</tr>`];
    });
    return `<tbody><tr class="series-name"><th colspan="${statColumns.length + 1}" title="${escapeHtml(about)}">${label}</th></tr>${rows.join("")}</tbody>`;
  });
  const note = `<p class="note">Over the entered expeds, per exped, never annualised: std is population (ddof 0); smart = Sharpe / √(1 + 2·Σ ((n-i)/n)·ρ^i) with ρ the lag-1 autocorrelation (AC1); max DD is additive; DD ex counts its expeds; Calmar = mean / max DD; hit = share of expeds &gt; 0.</p>`;
  return `<div class="table-wrap"><table id="series-table"><thead>${head}</thead>${blocks.join("")}</table></div>${note}`;
}

export function exposureSection(report: BacktestReport, strategies: NamedBacktest[]): string {
  const x = report.summary.feature_exposure;
  if (!x) return "";
  const rows = x.top.map((t) => `<tr><th scope="row">${escapeHtml(t.feature)}</th><td>${display(t.mean)}</td><td>${display(t.pooled)}</td></tr>`);
  const named = strategies.flatMap(({ name, backtest }) => {
    const e = backtest.summary.feature_exposure;
    return e
      ? [`<li>${escapeHtml(name)}: mean of each exped's max ${display(e.mean_max)}, most often <code>${escapeHtml(e.mean_max_feature)}</code>; pooled max ${display(e.pooled_max)}, <code>${escapeHtml(e.pooled_max_feature)}</code></li>`]
      : [];
  });
  return `<h2>Feature exposure of ${escapeHtml(report.strategy)}</h2>
<figure>${exposureChart(x.top)}<ul class="legend"><li><span class="swatch exposure"></span>mean over expeds of |corr|</li><li><span class="swatch pooled"></span>pooled over all rows</li></ul></figure>
<div class="table-wrap"><table id="exposure-table"><thead><tr><th class="name">feature</th><th>mean |corr|</th><th>pooled |corr|</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>
<ul id="exposure-features">${named.join("")}</ul>`;
}

export function expedsTable(expeds: ExpedScore[]): string {
  const terms = (e: ExpedScore) => [e.corr, e.aimc, e.ncorr, e.score, e.fn_corr, e.tb_corr, e.designated_corr, e.max_exposure?.value ?? null];
  const rows = expeds.map((e) =>
    e.n === 0
      ? `<tr class="not-entered"><th scope="row">${escapeHtml(e.exped)}</th>${"<td>—</td>".repeat(9)}<td></td></tr>`
      : `<tr><th scope="row">${escapeHtml(e.exped)}</th><td>${e.n}</td>${terms(e).map((v) => `<td>${display(v)}</td>`).join("")}<td class="feature">${escapeHtml(e.max_exposure?.feature ?? "")}</td></tr>`,
  );
  const note = expeds.some((e) => e.n === 0) ? `<p class="note">— not entered (scores 0).</p>` : "";
  const head = ["n", "corr", "aimc", "ncorr", "score", "fn corr", "tb corr", "corr v1", "max exp", "its feature"].map((h) => `<th>${h}</th>`).join("");
  return `<div class="table-wrap"><table id="expeds-table"><thead><tr><th class="name">exped</th>${head}</tr></thead><tbody>${rows.join("")}</tbody></table></div>${note}`;
}

/** The refusals; at the top of the page (`first`) when they dominate the walk, saying so. */
export function refusalsSection(strategies: NamedBacktest[], walked: number, first: boolean): string {
  const refused = strategies.filter(({ backtest }) => backtest.refusals.length > 0);
  const lead = first ? `<p class="note">Shown first: at least half of the ${walked} walked expeds were refused for ${refused.map(({ name }) => escapeHtml(name)).join(", ")}.</p>` : "";
  const body =
    refused.length === 0
      ? `<p>None: every strategy entered every exped.</p>`
      : refused
          .map(
            ({ name, backtest }) =>
              `<h3>${escapeHtml(name)}</h3><ul>${refusalRuns(backtest.refusals).map((r) => `<li><code>${escapeHtml(runExpeds(r))}</code>: ${escapeHtml(r.reason)}</li>`).join("")}</ul>`,
          )
          .join("");
  return `<section id="refusals"${first ? ` class="first"` : ""}><h2>Refusals</h2>${lead}${body}</section>`;
}
