/** The HTML report's per-exped bars of one term (CORR, AIMC, NCORR or the score) for the strategy under test, v1_designated's value as a tick on each. */
import { PLOT, svg, xLabels, yAxis } from "./chart-frame.js";
import type { ExpedScore } from "./backtest-report.js";
import { escapeHtml } from "./html-escape.js";
import { domainWithZero } from "./scale.js";
import { display } from "./summary-columns.js";
import { BENCHMARK } from "./strategy-order.js";

export interface TermBars {
  /** The svg's id, e.g. `corr-bars`. */
  id: string;
  /** The term's name on the axis and in tooltips, e.g. `CORR`. */
  label: string;
  /** The term's value on an exped; null when not entered. */
  value: (e: ExpedScore) => number | null;
}

/** One `rect.bar` per exped: `.pos` or `.neg`, or a pale full-height `.not-entered` band; a `line.benchmark` where the benchmark has a value. */
export function termBars({ id, label, value }: TermBars, expeds: ExpedScore[], benchmark: Map<string, number | null>): string {
  const bench = (e: ExpedScore) => benchmark.get(e.exped) ?? null;
  const values = expeds.flatMap((e) => [value(e), bench(e)]).filter((v): v is number => v !== null);
  const { y, svg: axis } = yAxis(domainWithZero(values), label);
  const band = (PLOT.right - PLOT.left) / Math.max(1, expeds.length);
  const xs = expeds.map((_, i) => PLOT.left + band * (i + 0.5));
  const f = (v: number) => v.toFixed(1);
  const bars = expeds.map((e, i) => {
    const left = xs[i] - band * 0.35;
    const name = escapeHtml(e.exped);
    const v = value(e);
    if (v === null)
      return `<rect class="bar not-entered" x="${f(left)}" y="${PLOT.top}" width="${f(band * 0.7)}" height="${PLOT.bottom - PLOT.top}"><title>${name}: not entered</title></rect>`;
    const top = Math.min(y(v), y(0));
    const b = bench(e);
    const tip = `${name}: ${label} ${display(v)}${b === null ? "" : `, ${BENCHMARK} ${display(b)}`}`;
    return `<rect class="bar ${v >= 0 ? "pos" : "neg"}" x="${f(left)}" y="${f(top)}" width="${f(band * 0.7)}" height="${f(Math.abs(y(v) - y(0)))}"><title>${tip}</title></rect>`;
  });
  const ticks = expeds.flatMap((e, i) => {
    const b = bench(e);
    return b === null ? [] : [`<line class="benchmark" x1="${f(xs[i] - band * 0.45)}" x2="${f(xs[i] + band * 0.45)}" y1="${f(y(b))}" y2="${f(y(b))}"/>`];
  });
  return svg(id, `${label} per exped, with ${BENCHMARK}'s ${label} as a tick`, axis + bars.join("") + ticks.join("") + xLabels(expeds.map((e) => e.exped), xs));
}
