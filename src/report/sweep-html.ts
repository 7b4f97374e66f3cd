/**
 * A sweep's report as one self-contained HTML page (inline CSS and SVG, no script, no network): the
 * leaderboard, a chart of the ranking metric against each numeric axis, and the cumulative score
 * of the top cells beside v1_designated; a swarm's broken invariants; the failed cells. Every
 * string from the sweep is escaped.
 */
import type { BacktestSummary } from "./backtest-report.js";
import { colourClass, STYLE } from "./backtest-page-style.js";
import { escapeHtml } from "./html-escape.js";
import { lineChart } from "./line-chart.js";
import { paramChart } from "./sweep-param-chart.js";
import { metricValue, type SweepReport, type SweepRow } from "./sweep-report.js";
import { axisValue } from "./sweep-text.js";
import { display } from "./summary-columns.js";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";
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
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p class="context">${report.cells - report.unfinished} of ${report.cells} cells finished, ${report.failures.length} failed${report.kind === "backtest" ? ` · ranked by ${escapeHtml(report.rank_by)}` : ""}</p>
${body}
${failures(report)}
</main>
</body>
</html>
`;
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
  const bench = r.benchmarks.length === 1 ? metricValue(r.benchmarks[0].summary, r.rank_by) : null;
  const charts = numeric.map((axis) => {
    const points = r.rows.map((row) => ({ x: row.varied[axis] as number, y: metricValue(row.summary, r.rank_by), label: `cell ${row.index}: ${display(metricValue(row.summary, r.rank_by))}` }));
    return `<h3>${escapeHtml(axis)}</h3><figure>${paramChart(axis, r.rank_by, points, bench)}</figure>`;
  });
  return `<h2>${escapeHtml(r.rank_by)} by parameter</h2>\n${charts.join("\n")}`;
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
  const series = [
    ...top.map((row) => ({ name: `#${row.rank} cell ${row.index}`, values: sums(row.expeds) })),
    ...(r.benchmarks.length > 0 ? [{ name: "v1_designated", values: sums(r.benchmarks[0].expeds) }] : []),
  ];
  const legend = series.map((s, i) => `<li><span class="swatch ${colourClass(i)}"></span>${escapeHtml(s.name)} <b>${display(s.values[s.values.length - 1] ?? 0)}</b></li>`);
  return `<h2>Cumulative score of the top ${top.length} cells</h2>
<figure>${lineChart("cumulative-chart", "Cumulative score of the top cells over the expeds", "cumulative score", expeds, series)}
<ul class="legend">${legend.join("")}</ul></figure>
<p class="note">On the expeds of the top cell; round scores summed exped by exped.</p>`;
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
