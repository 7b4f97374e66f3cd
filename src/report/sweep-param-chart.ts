/**
 * The sweep page's parameter-vs-metric chart: one dot per cell at (the axis's value, the ranking
 * metric), v1_designated's level dashed. Positive values spanning two decades or more (a penalty
 * from 0.1 to 1000) go on a log axis.
 */
import { PLOT, svg, yAxis } from "./chart-frame.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero, linear, niceDomain, ticks } from "./scale.js";
import { display } from "./summary-columns.js";

export interface ParamPoint {
  x: number;
  y: number;
  /** What the dot's tooltip says. */
  label: string;
}

const f = (v: number): string => v.toFixed(1);

export function paramChart(axis: string, metric: string, points: ParamPoint[], benchmark: number | null): string {
  const { y, svg: yAxisSvg } = yAxis(domainWithZero([...points.map((p) => p.y), ...(benchmark === null ? [] : [benchmark])]), metric);
  const raw = points.map((p) => p.x);
  const log = Math.min(...raw) > 0 && Math.max(...raw) / Math.min(...raw) >= 100;
  const t = (v: number) => (log ? Math.log10(v) : v);
  const xs = raw.map(t);
  const xDomain = niceDomain({ min: Math.min(...xs), max: Math.max(...xs) }, 5);
  const xt = linear(xDomain, PLOT.left + 8, PLOT.right - 8);
  const x = (v: number) => xt(t(v));
  const tickValues = log ? ticks(xDomain, 5).filter(Number.isInteger).map((k) => 10 ** k) : ticks(xDomain, 5);
  const xTicks = tickValues.map(
    (v) => `<text class="tick" x="${f(x(v))}" y="${PLOT.bottom + 16}" text-anchor="middle">${escapeHtml(String(Number(v.toPrecision(6))))}</text>`,
  );
  const title = `<text class="axis-title" x="${f((PLOT.left + PLOT.right) / 2)}" y="${PLOT.bottom + 40}" text-anchor="middle">${escapeHtml(log ? `${axis} (log scale)` : axis)}</text>`;
  const bench = benchmark === null ? "" : `<line class="benchmark" stroke-dasharray="6 4" x1="${PLOT.left}" x2="${PLOT.right}" y1="${f(y(benchmark))}" y2="${f(y(benchmark))}"><title>v1_designated: ${display(benchmark)}</title></line>`;
  const dots = points.map((p) => `<circle class="dot s0" cx="${f(x(p.x))}" cy="${f(y(p.y))}" r="4" fill="var(--c)"><title>${escapeHtml(p.label)}</title></circle>`);
  return svg(`param-${escapeHtml(axis)}`, `${metric} against ${axis}, one dot per cell`, yAxisSvg + xTicks.join("") + title + bench + dots.join(""));
}
