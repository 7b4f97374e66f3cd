/**
 * The HTML report's line charts (cumulative score, drawdown, rolling mean and Sharpe): one polyline
 * per strategy over the expeds, all on one scale. Series i has its own colour, dash pattern and
 * marker shape, and the strategy under test's thick line is drawn first, beneath the others, so
 * two series with (nearly) the same values stay told apart where they lie on each other.
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
  return svg(id, title, axis + xLabels(expeds, xs) + lines.join(""));
}

/**
 * Groups (of 2 or more) of series that lie on each other: every value within `tolerance` of the
 * group's first series' (null where it is null), in series order; `exact` when all are equal.
 */
export function coincidingSeries(series: LineSeries[], tolerance: number): { names: string[]; exact: boolean }[] {
  const groups: { first: LineSeries; names: string[]; exact: boolean }[] = [];
  const near = (a: LineSeries, b: LineSeries) =>
    a.values.every((v, i) => {
      const w = b.values[i];
      return v === null || w === null ? v === w : Math.abs(v - w) <= tolerance;
    });
  for (const s of series) {
    const group = groups.find((g) => near(g.first, s));
    if (!group) groups.push({ first: s, names: [s.name], exact: true });
    else {
      group.names.push(s.name);
      group.exact &&= s.values.every((v, i) => v === group.first.values[i]);
    }
  }
  return groups.filter((g) => g.names.length > 1).map(({ names, exact }) => ({ names, exact }));
}

/** How close two lines may be to count as lying on each other: a 200th of the values' range (about a pixel of the plot). */
export function coincidenceTolerance(series: LineSeries[]): number {
  const values = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  return values.length === 0 ? 0 : (Math.max(...values) - Math.min(...values)) / 200;
}
