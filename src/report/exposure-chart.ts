/** The HTML report's exposure chart: the strategy under test's most exposed features as horizontal bars (mean over expeds of |corr|), the pooled |corr| as a tick on each. */
import type { FeatureExposure } from "./backtest-report.js";
import { escapeHtml } from "./html-escape.js";
import { linear, niceDomain, ticks } from "./scale.js";
import { display } from "./summary-columns.js";
import { truncate } from "./text-layout.js";

const WIDTH = 760;
const ROW = 24;
const MARGIN = { left: 220, right: 24, top: 12, bottom: 44 };
/** Longest feature name shown in full beside its bar. */
const NAME = 32;

export function exposureChart(top: FeatureExposure[]): string {
  const height = MARGIN.top + MARGIN.bottom + ROW * top.length;
  const bottom = height - MARGIN.bottom;
  const domain = niceDomain({ min: 0, max: Math.max(1e-9, ...top.flatMap((t) => [t.mean, t.pooled])) }, 5);
  const x = linear(domain, MARGIN.left, WIDTH - MARGIN.right);
  const f = (v: number) => v.toFixed(1);
  const grid = ticks(domain, 5).map(
    (t) =>
      `<line class="grid" x1="${f(x(t))}" x2="${f(x(t))}" y1="${MARGIN.top}" y2="${bottom}"/>` +
      `<text class="tick" x="${f(x(t))}" y="${bottom + 14}" text-anchor="middle">${display(t)}</text>`,
  );
  const rows = top.map((t, i) => {
    const y = MARGIN.top + ROW * i;
    const name = escapeHtml(t.feature);
    return (
      `<text class="tick" x="${MARGIN.left - 8}" y="${f(y + ROW / 2)}" text-anchor="end" dominant-baseline="middle">${escapeHtml(truncate(t.feature, NAME))}</text>` +
      `<rect class="bar exposure" x="${f(x(0))}" y="${f(y + 4)}" width="${f(x(t.mean) - x(0))}" height="${ROW - 8}"><title>${name}: mean |corr| ${display(t.mean)}, pooled ${display(t.pooled)}</title></rect>` +
      `<line class="pooled" x1="${f(x(t.pooled))}" x2="${f(x(t.pooled))}" y1="${f(y + 1)}" y2="${f(y + ROW - 1)}"/>`
    );
  });
  const title = "Feature exposure: mean over expeds of |pearson(prediction, feature)|, the pooled value as a tick";
  return (
    `<svg id="exposure-chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(title)}" xmlns="http://www.w3.org/2000/svg"><title>${escapeHtml(title)}</title>` +
    grid.join("") +
    rows.join("") +
    `<text class="axis-title" x="${f((MARGIN.left + WIDTH - MARGIN.right) / 2)}" y="${height - 6}" text-anchor="middle">|pearson(prediction, feature)|</text></svg>`
  );
}
