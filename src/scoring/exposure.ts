import { MISSING, type NumericColumn } from "../domain/frame.js";

/**
 * Feature exposure (SCORING.md's display-only `max over features of |pearson(p, feature)|`) over
 * all rows of a file, computed exped by exped: each exped gives the co-moments of (p, f) over its
 * rows where p is finite and f is finite and not the MISSING sentinel (two passes over its
 * values, for accuracy), and the expeds' moments merge pairwise (Chan et al.) in exped order, so
 * the result never depends on which thread scored which exped.
 */
export interface CoMoments {
  n: number;
  meanX: number;
  meanY: number;
  /** Σ(x-x̄)², Σ(y-ȳ)², Σ(x-x̄)(y-ȳ) */
  sxx: number;
  syy: number;
  sxy: number;
  /** The one value every x (y) takes, NaN when they differ: constancy is tested exactly, as `pearson` does. */
  onlyX: number;
  onlyY: number;
}

export const NO_ROWS: CoMoments = { n: 0, meanX: 0, meanY: 0, sxx: 0, syy: 0, sxy: 0, onlyX: NaN, onlyY: NaN };

/** The co-moments of prediction `p` and raw feature column `f` (in its own type) over the rows where both are present. */
export function exposureMoments(p: Float64Array, f: NumericColumn): CoMoments {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let onlyX = NaN;
  let onlyY = NaN;
  for (let i = 0; i < p.length; i++) {
    if (!present(p[i], f[i])) continue;
    if (n === 0) [onlyX, onlyY] = [p[i], f[i]];
    if (p[i] !== onlyX) onlyX = NaN;
    if (f[i] !== onlyY) onlyY = NaN;
    n++;
    sx += p[i];
    sy += f[i];
  }
  if (n === 0) return NO_ROWS;
  const meanX = sx / n;
  const meanY = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < p.length; i++) {
    if (!present(p[i], f[i])) continue;
    const dx = p[i] - meanX;
    const dy = f[i] - meanY;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  return { n, meanX, meanY, sxx, syy, sxy, onlyX, onlyY };
}

/** The co-moments of the union of two disjoint row sets. */
export function mergeMoments(a: CoMoments, b: CoMoments): CoMoments {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const n = a.n + b.n;
  const dx = b.meanX - a.meanX;
  const dy = b.meanY - a.meanY;
  const w = (a.n * b.n) / n;
  return {
    n,
    meanX: a.meanX + (dx * b.n) / n,
    meanY: a.meanY + (dy * b.n) / n,
    sxx: a.sxx + b.sxx + dx * dx * w,
    syy: a.syy + b.syy + dy * dy * w,
    sxy: a.sxy + b.sxy + dx * dy * w,
    onlyX: a.onlyX === b.onlyX ? a.onlyX : NaN,
    onlyY: a.onlyY === b.onlyY ? a.onlyY : NaN,
  };
}

/** |pearson| of merged co-moments; 0 under 2 rows or with either side constant. */
export function absPearson(m: CoMoments): number {
  if (m.n < 2 || !Number.isNaN(m.onlyX) || !Number.isNaN(m.onlyY) || m.sxx === 0 || m.syy === 0) return 0;
  return Math.min(1, Math.abs(m.sxy) / (Math.sqrt(m.sxx) * Math.sqrt(m.syy)));
}

function present(p: number, f: number): boolean {
  return Number.isFinite(p) && Number.isFinite(f) && f !== MISSING;
}
