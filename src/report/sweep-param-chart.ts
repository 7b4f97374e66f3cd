/**
 * The sweep page's parameter-vs-metric chart: one dot per cell at (the axis's value, the ranking
 * metric), a colour per group of cells that share a v1_designated (a seed, a dataset), each
 * group's v1_designated level dashed in its colour. Positive values spanning two decades or more
 * (a penalty from 0.1 to 1000) go on a log axis.
 */
import { colourClass } from "./backtest-page-style.js";
import { PLOT, svg, yAxis } from "./chart-frame.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero, linear, niceDomain, ticks } from "./scale.js";
import { display } from "./summary-columns.js";

/** Cells scored beside one v1_designated: its level (null: none in the sweep), and what they share ("seed 2"; "" for a sweep with one). */
export interface ParamGroup {
  name: string;
  points: ParamPoint[];
  benchmark: number | null;
}

export interface ParamPoint {
  x: number;
  y: number;
  /** What the dot's tooltip says. */
  label: string;
}

const f = (v: number): string => v.toFixed(1);

export function paramChart(axis: string, metric: string, groups: ParamGroup[]): string {
  const points = groups.flatMap((g) => g.points);
  const levels = groups.flatMap((g) => (g.benchmark === null ? [] : [g.benchmark]));
  const { y, svg: yAxisSvg } = yAxis(domainWithZero([...points.map((p) => p.y), ...levels]), metric);
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
  const drawn = groups.map((g, i) => {
    const colour = colourClass(i);
    const of = g.name ? ` (${g.name})` : "";
    const bench =
      g.benchmark === null
        ? ""
        : `<line class="benchmark level ${colour}" stroke-dasharray="6 4" x1="${PLOT.left}" x2="${PLOT.right}" y1="${f(y(g.benchmark))}" y2="${f(y(g.benchmark))}"><title>${escapeHtml(`v1_designated${of}: ${display(g.benchmark)}`)}</title></line>`;
    const dots = g.points.map((p) => `<circle class="dot ${colour}" cx="${f(x(p.x))}" cy="${f(y(p.y))}" r="4" fill="var(--c)"><title>${escapeHtml(p.label + of)}</title></circle>`);
    return bench + dots.join("");
  });
  return svg(`param-${escapeHtml(axis)}`, `${metric} against ${axis}, one dot per cell`, yAxisSvg + xTicks.join("") + title + drawn.join(""));
}
