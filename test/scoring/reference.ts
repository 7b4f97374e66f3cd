/**
 * A slow, obviously-correct scoring reference written straight from SCORING.md with plain arrays:
 * textbook ranks (count smaller + average of the tie block), Math.pow, and ml-matrix's SVD
 * least squares for NCORR. The engine must agree with it to 1e-12.
 */
import { Matrix, SVD } from "ml-matrix";
import { normalQuantile } from "../../src/scoring/gaussian.js";

export interface RefTruth {
  ids: string[];
  target: ArrayLike<number>;
  benchmark: ArrayLike<number> | null;
  core: ArrayLike<number>[];
}

export function referenceTerms(truth: RefTruth, predIds: string[], pred: ArrayLike<number>) {
  const prediction = new Map<string, number>();
  predIds.forEach((id, i) => prediction.set(id, pred[i]));
  const fills = truth.core.map((col) => {
    const present = Array.from(col).filter((v) => v !== -1 && Number.isFinite(v));
    return present.length === 0 ? 0 : present.reduce((a, b) => a + b, 0) / present.length;
  });
  const rows = truth.ids
    .map((id, i) => ({
      id,
      p: prediction.has(id) ? prediction.get(id)! : NaN,
      t: truth.target[i],
      b: truth.benchmark ? truth.benchmark[i] : NaN,
      x: truth.core.map((col, j) => (col[i] === -1 || !Number.isFinite(col[i]) ? fills[j] : col[i])),
    }))
    .sort((a, b) => Buffer.compare(Buffer.from(a.id, "utf8"), Buffer.from(b.id, "utf8")));

  const scored = rows.filter((r) => Number.isFinite(r.p) && Number.isFinite(r.t));
  const n = scored.length;
  const t = scored.map((r) => r.t);
  const ok = n >= 2 && !allEqual(t);
  const corr = ok ? numeraiCorr(scored.map((r) => r.p), t) : 0;

  let ncorr = 0;
  let ncorrWellPosed = true;
  if (ok) {
    const gp = gauss(scored.map((r) => r.p));
    const X = new Matrix(scored.map((r) => [...r.x, 1]));
    const beta = new SVD(X, { autoTranspose: true }).solve(Matrix.columnVector(gp));
    const fitted = X.mmul(beta).getColumn(0);
    const resid = gp.map((v, i) => v - fitted[i]);
    ncorr = popStd(resid) < 1e-9 * popStd(gp) || popStd(gp) === 0 ? 0 : numeraiCorr(resid, t);
    ncorrWellPosed = !hasNearTie(resid, scored.map((r, i) => [gp[i], ...r.x]));
  }

  let aimc: number | null = null;
  if (truth.benchmark && rows.some((r) => Number.isFinite(r.t) && Number.isFinite(r.b))) {
    const both = scored.filter((r) => Number.isFinite(r.b));
    const tb = both.map((r) => r.t);
    if (both.length < 2 || allEqual(tb)) aimc = 0;
    else {
      const gp = gauss(both.map((r) => r.p));
      const gb = gauss(both.map((r) => r.b));
      const tc = centred(tb);
      const ratio = sum(gb.map((v) => v * v)) === 0 ? 0 : sum(gp.map((v, i) => v * gb[i])) / sum(gb.map((v) => v * v));
      aimc = sum(gp.map((v, i) => (v - ratio * gb[i]) * tc[i])) / both.length;
    }
  }
  return { n, corr, aimc, ncorr, ncorrWellPosed };
}

/**
 * Two residuals that are equal in exact arithmetic (e.g. by a symmetry of small integer features)
 * come out equal, or a few ulps apart in either direction, depending on how the least squares was
 * solved, and NCORR ranks them: such cases have no well-defined float answer, so the comparison
 * skips them. Rows with identical inputs (the same g(p) and features) tie exactly in any solver
 * and stay in.
 */
function hasNearTie(r: number[], inputs: number[][]): boolean {
  const scale = Math.max(...r.map(Math.abs));
  const same = (i: number, j: number) => inputs[i].every((v, k) => v === inputs[j][k]);
  return r.some((a, i) => r.some((b, j) => j > i && Math.abs(a - b) <= 1e-9 * scale && !same(i, j)));
}

/** Textbook average-tie rank, 1-based. */
export function textbookRank(x: number[]): number[] {
  return x.map((v) => x.filter((w) => w < v).length + (x.filter((w) => w === v).length + 1) / 2);
}

export function gauss(x: number[]): number[] {
  return textbookRank(x).map((r) => normalQuantile((r - 0.5) / x.length));
}

export function referencePearson(x: number[], y: number[]): number {
  if (allEqual(x) || allEqual(y)) return 0;
  const cx = centred(x);
  const cy = centred(y);
  return sum(cx.map((v, i) => v * cy[i])) / (Math.sqrt(sum(cx.map((v) => v * v))) * Math.sqrt(sum(cy.map((v) => v * v))));
}

function numeraiCorr(p: number[], t: number[]): number {
  const power = (v: number) => Math.sign(v) * Math.pow(Math.abs(v), 1.5);
  return referencePearson(gauss(p).map(power), centred(t).map(power));
}

const sum = (x: number[]) => x.reduce((a, b) => a + b, 0);
const centred = (x: number[]) => x.map((v) => v - sum(x) / x.length);
const popStd = (x: number[]) => Math.sqrt(sum(centred(x).map((v) => v * v)) / x.length);
const allEqual = (x: number[]) => x.every((v) => v === x[0]);
