/** Chart 2 of the HTML report: the strategy under test's CORR per exped as bars, v1_designated's CORR as a tick on each. */
import { PLOT, svg, xLabels, yAxis } from "./chart-frame.js";
import type { ExpedScore } from "./backtest-report.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero } from "./scale.js";
import { display } from "./summary-columns.js";

/** One `rect.bar` per exped: `.pos` or `.neg`, or a pale full-height `.not-entered` band; a `line.benchmark` where the benchmark has a CORR. */
export function corrBars(expeds: ExpedScore[], benchmark: Map<string, number | null>): string {
  const bench = (e: ExpedScore) => benchmark.get(e.exped) ?? null;
  const values = expeds.flatMap((e) => [e.corr, bench(e)]).filter((v): v is number => v !== null);
  const { y, svg: axis } = yAxis(domainWithZero(values), "CORR");
  const band = (PLOT.right - PLOT.left) / Math.max(1, expeds.length);
  const xs = expeds.map((_, i) => PLOT.left + band * (i + 0.5));
  const f = (v: number) => v.toFixed(1);
  const bars = expeds.map((e, i) => {
    const left = xs[i] - band * 0.35;
    const name = escapeHtml(e.exped);
    if (e.corr === null)
      return `<rect class="bar not-entered" x="${f(left)}" y="${PLOT.top}" width="${f(band * 0.7)}" height="${PLOT.bottom - PLOT.top}"><title>${name}: not entered</title></rect>`;
    const top = Math.min(y(e.corr), y(0));
    const b = bench(e);
    const tip = `${name}: CORR ${display(e.corr)}${b === null ? "" : `, v1_designated ${display(b)}`}`;
    return `<rect class="bar ${e.corr >= 0 ? "pos" : "neg"}" x="${f(left)}" y="${f(top)}" width="${f(band * 0.7)}" height="${f(Math.abs(y(e.corr) - y(0)))}"><title>${tip}</title></rect>`;
  });
  const ticks = expeds.flatMap((e, i) => {
    const b = bench(e);
    return b === null ? [] : [`<line class="benchmark" x1="${f(xs[i] - band * 0.45)}" x2="${f(xs[i] + band * 0.45)}" y1="${f(y(b))}" y2="${f(y(b))}"/>`];
  });
  return svg("corr-bars", "CORR per exped, with v1_designated's CORR as a tick", axis + bars.join("") + ticks.join("") + xLabels(expeds.map((e) => e.exped), xs));
}
