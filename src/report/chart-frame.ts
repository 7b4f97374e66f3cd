/** What the report's two SVG charts share: their size, the y axis with its grid and zero line, and exped labels under the x axis. */
import { escapeHtml } from "./html-escape.js";
import { type Domain, linear, niceDomain, ticks } from "./scale.js";
import { display } from "./summary-columns.js";

const WIDTH = 760;
const HEIGHT = 320;
const MARGIN = { left: 76, right: 16, top: 16, bottom: 84 };
export const PLOT = { left: MARGIN.left, right: WIDTH - MARGIN.right, top: MARGIN.top, bottom: HEIGHT - MARGIN.bottom };

/** At most this many exped labels; with more expeds, every k-th is labelled. */
const MAX_X_LABELS = 24;
const TICKS = 5;

const f = (v: number): string => v.toFixed(1);

/** The y scale over the values' domain (widened to round ticks and to 0), and the axis drawn for it. */
export function yAxis(domain: Domain, title: string): { y: (v: number) => number; svg: string } {
  const nice = niceDomain(domain, TICKS);
  const y = linear(nice, PLOT.bottom, PLOT.top);
  const grid = ticks(nice, TICKS).map(
    (t) =>
      `<line class="grid" x1="${PLOT.left}" x2="${PLOT.right}" y1="${f(y(t))}" y2="${f(y(t))}"/>` +
      `<text class="tick" x="${PLOT.left - 6}" y="${f(y(t))}" text-anchor="end" dominant-baseline="middle">${display(t)}</text>`,
  );
  const middle = (PLOT.top + PLOT.bottom) / 2;
  return {
    y,
    svg: [
      ...grid,
      `<line class="zero" x1="${PLOT.left}" x2="${PLOT.right}" y1="${f(y(0))}" y2="${f(y(0))}"/>`,
      `<text class="axis-title" transform="translate(14 ${f(middle)}) rotate(-90)" text-anchor="middle">${escapeHtml(title)}</text>`,
    ].join(""),
  };
}

/** Exped names under their x positions, turned to fit, and the axis title below them. */
export function xLabels(expeds: string[], xs: number[]): string {
  const every = Math.ceil(expeds.length / MAX_X_LABELS);
  const labels = expeds.map((exped, i) =>
    i % every === 0
      ? `<text class="tick" transform="translate(${f(xs[i])} ${PLOT.bottom + 8}) rotate(-40)" text-anchor="end" dominant-baseline="hanging">${escapeHtml(exped)}</text>`
      : "",
  );
  return labels.join("") + `<text class="axis-title" x="${f((PLOT.left + PLOT.right) / 2)}" y="${HEIGHT - 6}" text-anchor="middle">exped</text>`;
}

/** An svg element of the charts' size around its content, titled for screen readers. */
export function svg(id: string, title: string, content: string): string {
  return `<svg id="${id}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${escapeHtml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>${content}</svg>`;
}
