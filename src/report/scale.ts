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

/** Round tick values (1, 2 or 5 times a power of ten apart) covering the domain, about `count` of them. */
export function ticks(d: Domain, count: number): number[] {
  const span = d.max - d.min;
  if (span === 0) return [d.min];
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) as number;
  const out: number[] = [];
  for (let k = Math.ceil(d.min / step); k * step <= d.max + step * 1e-9; k++) out.push(k * step + 0);
  return out;
}
