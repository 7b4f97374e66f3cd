/** Linear scales for the charts and sparklines: a domain that always holds 0, and round tick values. */

export interface Domain {
  min: number;
  max: number;
}

/** The smallest interval holding 0 and every finite value. */
export function domainWithZero(values: Iterable<number>): Domain {
  let min = 0;
  let max = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** Maps the domain onto [from, to]; a domain of one point maps to `from`. */
export function linear(d: Domain, from: number, to: number): (v: number) => number {
  const span = d.max - d.min;
  return (v) => (span === 0 ? from : from + ((v - d.min) / span) * (to - from));
}

/** The distance between round ticks (1, 2 or 5 times a power of ten) for about `count` of them over a domain wider than a point. */
function tickStep(d: Domain, count: number): number {
  const raw = (d.max - d.min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) as number;
}

/** Round tick values covering the domain, about `count` of them. */
export function ticks(d: Domain, count: number): number[] {
  if (d.max === d.min) return [d.min];
  const step = tickStep(d, count);
  const out: number[] = [];
  for (let k = Math.ceil(d.min / step); k * step <= d.max + step * 1e-9; k++) out.push(k * step + 0);
  return out;
}

/** The domain widened out to round ticks, so a chart's axis ends on a labelled line; a point widens to ±1 around it. */
export function niceDomain(d: Domain, count: number): Domain {
  if (d.max === d.min) return { min: d.min - 1, max: d.max + 1 };
  const step = tickStep(d, count);
  return { min: Math.floor(d.min / step + 1e-9) * step + 0, max: Math.ceil(d.max / step - 1e-9) * step + 0 };
}
