/**
 * The HTML report's line charts (cumulative score, drawdown, rolling mean and Sharpe): one polyline
 * per strategy over the expeds, all on one scale. Series i has its own colour, dash pattern and
 * marker shape, so two series with the same values stay told apart where they lie on each other.
 */
import { colourClass } from "./backtest-page-style.js";
import { PLOT, svg, xLabels, yAxis } from "./chart-frame.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero, linear } from "./scale.js";
import { display } from "./summary-columns.js";

export interface LineSeries {
  name: string;
  /** One value per exped of the chart; null where the series has none (the line joins its neighbours). */
  values: (number | null)[];
}

/** Dash patterns (classes dash0 … dash3, see the stylesheet) and marker shapes, cycled by series. */
export const DASHES = 4;
const MARKERS = [
  (x: number, y: number) => `M${x - 3},${y}a3,3 0 1,0 6,0a3,3 0 1,0 -6,0`,
  (x: number, y: number) => `M${x - 3},${y - 3}h6v6h-6z`,
  (x: number, y: number) => `M${x},${y - 4}l4,7h-8z`,
  (x: number, y: number) => `M${x},${y - 4}l4,4l-4,4l-4,-4z`,
];
/** Above this many expeds the markers are left out: they would crowd into a band. */
const MAX_MARKED = 60;

/** x of each exped: evenly spread over the plot, a single exped in the middle. */
function expedXs(count: number): number[] {
  const x = linear({ min: 0, max: Math.max(1, count - 1) }, PLOT.left + 8, PLOT.right - 8);
  return Array.from({ length: count }, (_, i) => (count === 1 ? (PLOT.left + PLOT.right) / 2 : x(i)));
}

/** `series[0]` is the strategy under test; series i is drawn in `colourClass(i)`, as the legend is. */
export function lineChart(id: string, title: string, yTitle: string, expeds: string[], series: LineSeries[]): string {
  const xs = expedXs(expeds.length);
  const { y, svg: axis } = yAxis(domainWithZero(series.flatMap((s) => s.values.filter((v): v is number => v !== null))), yTitle);
  const lines = series.map((s, i) => {
    const at = s.values.flatMap((v, j) => (v === null ? [] : [[xs[j], y(v)] as const]));
    const points = at.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" ");
    const last = [...s.values].reverse().find((v) => v !== null) ?? null;
    const marks = expeds.length > MAX_MARKED ? "" : at.map(([px, py]) => MARKERS[i % MARKERS.length](Number(px.toFixed(1)), Number(py.toFixed(1)))).join("");
    const classes = `${colourClass(i)} dash${i % DASHES}${i === 0 ? " under-test" : ""}`;
    return (
      `<g class="line ${classes}">` +
      `<polyline class="series ${classes}" data-strategy="${escapeHtml(s.name)}" points="${points}"><title>${escapeHtml(s.name)}: ${display(last)}</title></polyline>` +
      (marks ? `<path class="marker ${colourClass(i)}" d="${marks}"/>` : "") +
      `</g>`
    );
  });
  return svg(id, title, axis + xLabels(expeds, xs) + lines.reverse().join(""));
}

/** Groups (of 2 or more) of series with exactly the same values, in series order. */
export function coincidingSeries(series: LineSeries[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const s of series) {
    const key = JSON.stringify(s.values);
    groups.set(key, [...(groups.get(key) ?? []), s.name]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}
