/**
 * A series of round scores as a sparkline, one character a round: ▁ for the lowest score on the
 * scale up to █ for the highest; `·` for a round not entered. One scale for every model, so bars
 * compare across rows.
 */
const BARS = "▁▂▃▄▅▆▇█";
export const NOT_ENTERED = "·";

export interface Scale {
  lo: number;
  hi: number;
}

/** The lowest and highest score over all series (0..0 when there is none). */
export function scaleOf(series: readonly (readonly (number | null)[])[]): Scale {
  const values = series.flat().filter((x): x is number => x !== null);
  return values.length === 0 ? { lo: 0, hi: 0 } : { lo: Math.min(...values), hi: Math.max(...values) };
}

/** One bar per score; on a flat scale (every score equal) every bar is the middle one. */
export function sparkline(scores: readonly (number | null)[], { lo, hi }: Scale): string {
  const bar = (x: number): string => BARS[hi > lo ? Math.round(((x - lo) / (hi - lo)) * (BARS.length - 1)) : 3];
  return scores.map((x) => (x === null ? NOT_ENTERED : bar(x))).join("");
}
