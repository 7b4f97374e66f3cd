/**
 * What the live standings' numbers are: `total` folds the round scores as the rank metric says
 * (a sum by default), while CORR, AIMC and NCORR are each model's mean over its scored rounds.
 */
const totals: Record<string, string> = {
  total_score: "ranked by total = sum of round scores",
  exped_weighted_mean_score: "ranked by total = exped-weighted mean of round scores",
};

export const TERMS_ARE_MEANS = "CORR AIMC NCORR = per-round means";

/** The legend's lines: one when it fits `width`, else one part a line. */
export function standingsLegend(rankMetric: string, width: number): string[] {
  const parts = [totals[rankMetric] ?? `ranked by ${rankMetric}`, TERMS_ARE_MEANS];
  const joined = parts.join(" · ");
  return joined.length <= width ? [joined] : parts;
}
