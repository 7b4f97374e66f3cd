/**
 * A sweep's report as one self-contained HTML page (inline CSS and SVG, no script, no network): the
 * leaderboard, a chart of the ranking metric against each numeric axis, and the cumulative score
 * of the top cells beside v1_designated; a swarm's broken invariants; the failed cells. Every
 * string from the sweep is escaped.
 */
import type { BacktestSummary } from "./backtest-report.js";
import { colourClass } from "./backtest-page-style.js";
import { escapeHtml } from "./html-escape.js";
import { lineChart } from "./line-chart.js";
import { reportPage } from "./report-page.js";
import { paramChart } from "./sweep-param-chart.js";
import { metricValue, type SweepBenchmark, type SweepReport, type SweepRow } from "./sweep-report.js";
import { axisValue, variedText } from "./sweep-text.js";
import { display } from "./summary-columns.js";

/** Cells drawn on the cumulative chart. */
const TOP = 5;
const TERMS = ["corr", "aimc", "ncorr", "score"] as const;
const STATS = ["mean", "std", "sharpe", "max_drawdown"] as const;

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

function figures(s: BacktestSummary): string {
  return TERMS.flatMap((t) => STATS.map((st) => `<td>${display(s[t][st])}</td>`)).join("");
}

function leaderboard(r: SweepReport): string {
  const axes = r.axes.map((a) => `<th class="name">${escapeHtml(a)}</th>`).join("");
  const groups = TERMS.map((t) => `<th colspan="${STATS.length}">${t === "score" ? "score" : t.toUpperCase()}</th>`).join("");
  const stats = TERMS.flatMap(() => STATS.map((s) => `<th>${s === "max_drawdown" ? "max DD" : s === "sharpe" ? "Sharpe" : s}</th>`)).join("");
  const cells = (varied: Record<string, unknown>) => r.axes.map((a) => `<td class="name" style="text-align:left">${a in varied ? escapeHtml(axisValue(varied[a])) : "—"}</td>`).join("");
  const rows = r.rows.map((row) => `<tr><td>${row.rank}</td><td>${row.index}</td>${cells(row.varied)}${figures(row.summary)}</tr>`);
  const bench = r.benchmarks.map((b) => `<tr class="under-test"><td>ref</td><td>—</td>${cells({ strategy: "v1_designated", ...b.on })}${figures(b.summary)}</tr>`);
  return `<h2>Leaderboard</h2>
<div class="table-wrap"><table>
<thead><tr class="groups"><th colspan="${2 + r.axes.length}"></th>${groups}</tr><tr><th>rank</th><th>cell</th>${axes}${stats}</tr></thead>
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
  const groups = new Map<string, { name: string; rows: SweepRow[]; bench: SweepBenchmark | undefined }>();
  for (const row of r.rows) {
    const bench = benchmarkOf(r, row);
    const name = bench ? variedText(bench.on) : "";
    const group = groups.get(name) ?? { name, rows: [], bench };
    group.rows.push(row);
    groups.set(name, group);
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
  const expeds = top[0].expeds.map((e) => e.exped);
  const sums = (scores: { exped: string; score: number }[]) => {
    const by = new Map(scores.map((e) => [e.exped, e.score]));
    let sum = 0;
    return expeds.map((x) => (sum += by.get(x) ?? 0));
  };
  // The reference line is v1_designated on the top cell's own scenario, dataset, scoring and seed.
  const bench = benchmarkOf(r, top[0]);
  const on = bench ? variedText(bench.on) : "";
  const series = [
    ...top.map((row) => ({ name: `#${row.rank} cell ${row.index}`, values: sums(row.expeds) })),
    ...(bench ? [{ name: on ? `v1_designated (${on})` : "v1_designated", values: sums(bench.expeds) }] : []),
  ];
  const legend = series.map((s, i) => `<li><span class="swatch ${colourClass(i)}"></span>${escapeHtml(s.name)} <b>${display(s.values[s.values.length - 1] ?? 0)}</b></li>`);
  return `<h2>Cumulative score of the top ${top.length} cells</h2>
<figure>${lineChart("cumulative-chart", "Cumulative score of the top cells over the expeds", "cumulative score", expeds, series)}
<ul class="legend">${legend.join("")}</ul></figure>
<p class="note">On the expeds of the top cell, beside v1_designated on its scenario, dataset, scoring and seed; round scores summed exped by exped.</p>`;
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
