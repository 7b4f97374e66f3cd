/** Chart 1 of the HTML report: each strategy's cumulative score over the expeds, one polyline each, all on one scale. */
import { colourClass } from "./backtest-page-style.js";
import { PLOT, svg, xLabels, yAxis } from "./chart-frame.js";
import type { CumulativeSeries } from "./cumulative.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero, linear } from "./scale.js";
import { display } from "./summary-columns.js";

/** x of each exped: evenly spread over the plot, a single exped in the middle. */
function expedXs(count: number): number[] {
  const x = linear({ min: 0, max: Math.max(1, count - 1) }, PLOT.left + 8, PLOT.right - 8);
  return Array.from({ length: count }, (_, i) => (count === 1 ? (PLOT.left + PLOT.right) / 2 : x(i)));
}

/** `series[0]` is the strategy under test; series i is drawn in `colourClass(i)`, as the legend is. */
export function cumulativeChart(expeds: string[], series: CumulativeSeries[]): string {
  const xs = expedXs(expeds.length);
  const { y, svg: axis } = yAxis(domainWithZero(series.flatMap((s) => s.values)), "cumulative score");
  const lines = series.map((s, i) => {
    const points = s.values.map((v, j) => `${xs[j].toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const final = display(s.values[s.values.length - 1] ?? 0);
    return `<polyline class="series ${colourClass(i)}${i === 0 ? " under-test" : ""}" data-strategy="${escapeHtml(s.name)}" points="${points}"><title>${escapeHtml(s.name)}: ${final}</title></polyline>`;
  });
  return svg("cumulative-chart", "Cumulative score per strategy over the expeds", axis + xLabels(expeds, xs) + lines.reverse().join(""));
}
