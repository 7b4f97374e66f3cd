import type { ExpedTerms } from "./exped.js";

/** The live scoring settings (served by `explain_scoring`; a scenario may change them). */
export interface ScoringSettings {
  weights: { corr: number; aimc: number; ncorr: number };
  clip: number;
}

export const defaultScoringSettings: ScoringSettings = {
  weights: { corr: 1, aimc: 2, ncorr: 1 },
  clip: 0.25,
};

/** Round score = `clip(w_corr·CORR + w_aimc·AIMC + w_ncorr·NCORR, -clip, +clip)`. */
export function roundScore(terms: { corr: number; aimc: number; ncorr: number }, s: ScoringSettings): number {
  const raw = s.weights.corr * terms.corr + s.weights.aimc * terms.aimc + s.weights.ncorr * terms.ncorr;
  return Math.min(s.clip, Math.max(-s.clip, raw));
}

/**
 * A round's terms = the mean of its expeds' terms. AIMC is null (the round does not settle) if any
 * exped's AIMC is null, or if there are no expeds.
 */
export function meanTerms(expeds: ExpedTerms[]): { corr: number; aimc: number | null; ncorr: number } {
  const n = expeds.length;
  if (n === 0) return { corr: 0, aimc: null, ncorr: 0 };
  let corr = 0;
  let aimc: number | null = 0;
  let ncorr = 0;
  for (const e of expeds) {
    corr += e.corr;
    ncorr += e.ncorr;
    aimc = aimc === null || e.aimc === null ? null : aimc + e.aimc;
  }
  return { corr: corr / n, aimc: aimc === null ? null : aimc / n, ncorr: ncorr / n };
}
