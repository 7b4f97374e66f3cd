/**
 * A sweep's report as one self-contained HTML page (inline CSS and SVG, no script, no network): the
 * leaderboard, a chart of the ranking metric against each numeric axis, and the cumulative score
 * of the top cells beside v1_designated; a swarm's broken invariants; the failed cells. Every
 * string from the sweep is escaped.
 */
import type { BacktestSummary, ExpedScore } from "./backtest-report.js";
import { colourClass } from "./backtest-page-style.js";
import { escapeHtml } from "./html-escape.js";
import { lineChart } from "./line-chart.js";
import { reportPage } from "./report-page.js";
import { paramChart } from "./sweep-param-chart.js";
import { enteredText, metricValue, type RankMetric, SHOWN_STATS, showsEntered, type SweepBenchmark, type SweepReport, type SweepRow, TERMS, unshownRankMetric } from "./sweep-report.js";
import { axisValue, termLabel, variedText } from "./sweep-text.js";
import { display } from "./summary-columns.js";

/** Cells drawn on the cumulative chart. */
const TOP = 5;
const STAT_HEADERS: Record<string, string> = { max_drawdown: "max DD", sharpe: "Sharpe", hit_rate: "hit rate" };
const statHeader = (stat: string): string => STAT_HEADERS[stat] ?? stat;

export function renderSweepHtml(report: SweepReport): string {
  const title = `Sweep: ${escapeHtml(report.sweep)}`;
  const body =
    report.kind === "backtest"
      ? [leaderboard(report), paramCharts(report), cumulative(report)].join("\n")
      : swarm(report);
  return reportPage(
    title,
    `<p class="context">${report.cells - report.unfinished} of ${report.cells} cells finished, ${report.failures.length} failed${report.kind === "backtest" ? ` · ranked by ${escapeHtml(report.rank_by)}` : ""}</p>
${body}
${failures(report)}`,
  );
}

/** The columns after the axes, as their two header rows and a summary's cells: the ranking metric when the statistics leave it out (score / total), then each term's statistics. */
function figureColumns(metric: RankMetric): { groups: string; stats: string; figures: (s: BacktestSummary) => string } {
  const groups = TERMS.map((t) => `<th colspan="${SHOWN_STATS.length}">${termLabel(t)}</th>`).join("");
  const stats = TERMS.flatMap(() => SHOWN_STATS.map((s) => `<th>${statHeader(s)}</th>`)).join("");
  const figures = (s: BacktestSummary) => TERMS.flatMap((t) => SHOWN_STATS.map((st) => `<td>${display(s[t][st])}</td>`)).join("");
  const ranked = unshownRankMetric(metric);
  if (!ranked) return { groups, stats, figures };
  return {
    groups: `<th class="rank-by">${termLabel(ranked.term)}</th>${groups}`,
    stats: `<th class="rank-by">${statHeader(ranked.stat)}</th>${stats}`,
    figures: (s) => `<td class="rank-by">${display(metricValue(s, metric))}</td>${figures(s)}`,
  };
}

function leaderboard(r: SweepReport): string {
  const { groups, stats, figures } = figureColumns(r.rank_by);
  const axes = r.axes.map((a) => `<th class="name">${escapeHtml(a)}</th>`).join("");
  const cells = (varied: Record<string, unknown>) => r.axes.map((a) => `<td class="name" style="text-align:left">${a in varied ? escapeHtml(axisValue(varied[a])) : "—"}</td>`).join("");
  const withEntered = showsEntered(r);
  const entered = (s: BacktestSummary) => (withEntered ? `<td>${enteredText(s)}</td>` : "");
  const rows = r.rows.map((row) => `<tr><td>${row.rank}</td><td>${row.index}</td>${cells(row.varied)}${entered(row.summary)}${figures(row.summary)}</tr>`);
  const bench = r.benchmarks.map((b) => `<tr class="under-test"><td>ref</td><td>—</td>${cells({ strategy: "v1_designated", ...b.on })}${entered(b.summary)}${figures(b.summary)}</tr>`);
  const front = 2 + r.axes.length + (withEntered ? 1 : 0);
  return `<h2>Leaderboard</h2>
<div class="table-wrap"><table>
<thead><tr class="groups"><th colspan="${front}"></th>${groups}</tr><tr><th>rank</th><th>cell</th>${axes}${withEntered ? "<th>entered</th>" : ""}${stats}</tr></thead>
<tbody>${[...rows, ...bench].join("\n")}</tbody>
</table></div>
<p class="note">Bold: v1_designated on the same scenario, dataset, scoring and seed. Statistics over each cell's per-exped series.</p>`;
}

/** One chart per parameter axis whose every value is a number (seeds are not parameters). */
function paramCharts(r: SweepReport): string {
  const numeric = r.axes.filter((a) => a !== "seed" && r.rows.length > 0 && r.rows.every((row) => typeof row.varied[a] === "number"));
  if (numeric.length === 0) return "";
  const groups = referenceGroups(r);
  const charts = numeric.map((axis) => {
    const drawn = groups.map(({ name, rows, bench }) => ({
      name,
      benchmark: bench ? metricValue(bench.summary, r.rank_by) : null,
      points: rows.map((row) => ({ x: row.varied[axis] as number, y: metricValue(row.summary, r.rank_by), label: `cell ${row.index}: ${display(metricValue(row.summary, r.rank_by))}` })),
    }));
    const legend = groups.length > 1 ? `<ul class="legend">${groups.map((g, i) => `<li><span class="swatch ${colourClass(i)}"></span>${escapeHtml(g.name)}</li>`).join("")}</ul>` : "";
    return `<h3>${escapeHtml(axis)}</h3><figure>${paramChart(axis, r.rank_by, drawn)}${legend}</figure>`;
  });
  return `<h2>${escapeHtml(r.rank_by)} by parameter</h2>
${charts.join("\n")}
<p class="note">Dashed: v1_designated${groups.length > 1 ? ", in the colour of the cells that share its scenario, dataset, scoring and seed" : ""}.</p>`;
}

/** The rows in groups that share a v1_designated (the benchmark axes' values), in the order their first row ranks; each with its benchmark, if any. */
function referenceGroups(r: SweepReport): { name: string; rows: SweepRow[]; bench: SweepBenchmark | undefined }[] {
  // Keyed by the benchmark itself, not its name: a name cuts a long value, and two values may cut alike.
  const groups = new Map<SweepBenchmark | undefined, { name: string; rows: SweepRow[]; bench: SweepBenchmark | undefined }>();
  for (const row of r.rows) {
    const bench = benchmarkOf(r, row);
    const group = groups.get(bench) ?? { name: bench ? variedText(bench.on) : "", rows: [], bench };
    group.rows.push(row);
    groups.set(bench, group);
  }
  return [...groups.values()];
}

/** v1_designated on the row's own scenario, dataset, scoring and seed. */
function benchmarkOf(r: SweepReport, row: SweepRow): SweepBenchmark | undefined {
  return r.benchmarks.find((b) => Object.entries(b.on).every(([axis, value]) => JSON.stringify(row.varied[axis]) === JSON.stringify(value)));
}

function cumulative(r: SweepReport): string {
  const top: SweepRow[] = r.rows.slice(0, TOP);
  if (top.length === 0) return "";
  // The reference line is v1_designated on the top cell's own scenario, dataset, scoring and seed.
  const bench = benchmarkOf(r, top[0]);
  const on = bench ? variedText(bench.on) : "";
  const walks = [
    ...top.map((row) => ({ name: `#${row.rank} cell ${row.index}`, expeds: row.expeds })),
    ...(bench ? [{ name: on ? `v1_designated (${on})` : "v1_designated", expeds: bench.expeds }] : []),
  ];
  const places = walkPlaces(walks.map((w) => w.expeds.map((e) => e.exped)));
  const sums = walks.map((w) => runningSum(w.expeds));
  const series = walks.map((w, i) => ({ name: w.name, values: places.map((_, j) => sums[i][j] ?? null) }));
  const legend = walks.map((w, i) => `<li><span class="swatch ${colourClass(i)}"></span>${escapeHtml(w.name)} <b>${display(sums[i].at(-1) ?? 0)}</b></li>`);
  return `<h2>Cumulative score of the top ${top.length} cells</h2>
<figure>${lineChart("cumulative-chart", "Cumulative score of the top cells over the expeds", "cumulative score", places, series)}
<ul class="legend">${legend.join("")}</ul></figure>
<p class="note">Each cell's round scores summed over the expeds it walked, in order, beside v1_designated on the top cell's scenario, dataset, scoring and seed. When the lines walk different expeds (other calendars), each line's expeds are numbered from 1, so all start at the same place.</p>`;
}

/** The score summed exped by exped over a walk: values[i] is the total of its first i + 1 expeds. */
function runningSum(expeds: ExpedScore[]): number[] {
  let sum = 0;
  return expeds.map((e) => (sum += e.score));
}

/**
 * The cumulative chart's x places: the i-th exped of each line's own walk at the i-th, so that
 * cells on other calendars (other scenarios, other exped names) are drawn over their own expeds
 * rather than flat on names they never walked. Named by the expeds when every line walks the same
 * ones, else numbered 1, 2, … up to the longest walk.
 */
function walkPlaces(walks: string[][]): string[] {
  const first = JSON.stringify(walks[0]);
  if (walks.every((w) => JSON.stringify(w) === first)) return walks[0];
  return Array.from({ length: Math.max(...walks.map((w) => w.length)) }, (_, i) => String(i + 1));
}

function swarm(r: SweepReport): string {
  const broken = r.replays.filter((p) => p.violations.length > 0);
  const items = broken.map(
    (p) =>
      `<li>cell ${p.index}: ${p.violations.map((v) => `${escapeHtml(v.invariant)} after step ${v.step}: ${escapeHtml(v.detail)}`).join("; ")}<br><code>${escapeHtml(p.reproduce)}</code></li>`,
  );
  return `<h2>Invariants</h2><p>${r.replays.length} replays checked after every step; ${broken.length} broke an invariant.</p>${items.length ? `<ul>${items.join("")}</ul>` : ""}`;
}

function failures(r: SweepReport): string {
  if (r.failures.length === 0) return "";
  const items = r.failures.map((f) => `<li>cell ${f.index}: ${escapeHtml(f.reason)}<br><code>${escapeHtml(f.reproduce)}</code><pre>${escapeHtml(f.traceback)}</pre></li>`);
  return `<h2>Failed cells</h2><ul>${items.join("")}</ul>`;
}
