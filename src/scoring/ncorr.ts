import { corrOfGaussian } from "./corr.js";
import { gaussianise } from "./gaussian.js";
import { dot, gather, std } from "./vector.js";

/** Core-feature value that means "missing" in the datasets. */
export const MISSING_FEATURE = -1.0;

/**
 * NCORR = CORR of the residual `r = gp - X·β`, `X = [core features | 1]`, β the least-squares
 * solution of `X·β ≈ gp`, `gp = g(p)`. The residual is ranked and gaussianised again. If
 * `std(r) < 1e-9·std(gp)` (the prediction is explained by the features) NCORR is 0.
 *
 * The residual is the projection of gp off the column space of X, so it is computed from an
 * orthonormal basis Q of that space (`coreBasis`, built once per exped and row set):
 * `r = gp - Q·Qᵀ·gp`. The basis drops dependent columns, so constant or duplicated features are
 * fine. `r` and `buf` are scratch of length ≥ n; `sorted` too.
 */
export function ncorrOfGaussian(
  gp: Float64Array,
  n: number,
  basis: CoreBasis,
  poweredTc: Float64Array,
  r: Float64Array,
  sorted: Float64Array,
): number {
  if (n < 2) return 0;
  residualise(gp, n, basis, r);
  const spread = std(gp, n);
  if (spread === 0 || std(r, n) < 1e-9 * spread) return 0;
  gaussianise(r, n, r, sorted);
  return corrOfGaussian(r, n, poweredTc, r);
}

/** Orthonormal columns (column-major, `k` columns of length `n`) spanning `[1 | core]` over one row set. */
export interface CoreBasis {
  n: number;
  k: number;
  q: Float64Array;
}

/**
 * Over the rows `rows` of the (imputed) core columns. Gram-Schmidt with re-orthogonalisation ("twice is enough") of the intercept and the core columns;
 * a column whose norm falls below 1e-10 of its original norm after projection is dependent and dropped.
 */
export function coreBasis(core: Float64Array[], rows: Int32Array, n: number): CoreBasis {
  const q = new Float64Array((core.length + 1) * n);
  let k = 0;
  for (let c = -1; c < core.length; c++) {
    const v = q.subarray(k * n, (k + 1) * n);
    if (c < 0) v.fill(1);
    else gather(core[c], rows, n, v);
    const norm0 = Math.sqrt(dot(v, v, n));
    if (norm0 === 0) continue;
    for (let pass = 0; pass < 2; pass++) project(v, n, q, k);
    const norm = Math.sqrt(dot(v, v, n));
    if (norm <= 1e-10 * norm0) continue;
    const inv = 1 / norm;
    for (let i = 0; i < n; i++) v[i] *= inv;
    k++;
  }
  return { n, k, q: q.slice(0, k * n) };
}

/** `out = gp - Q·Qᵀ·gp`. */
export function residualise(gp: Float64Array, n: number, basis: CoreBasis, out: Float64Array): void {
  for (let i = 0; i < n; i++) out[i] = gp[i];
  project(out, n, basis.q, basis.k);
}

/**
 * Imputes a core column in place: values equal to the missing sentinel or not finite become the
 * mean of the other values (0 if there are none).
 */
export function imputeCore(col: Float64Array): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (v !== MISSING_FEATURE && Number.isFinite(v)) {
      sum += v;
      count++;
    }
  }
  const fill = count === 0 ? 0 : sum / count;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (v === MISSING_FEATURE || !Number.isFinite(v)) col[i] = fill;
  }
}

/** Removes from v its components along the first k columns of q, one column at a time (modified Gram-Schmidt). */
function project(v: Float64Array, n: number, q: Float64Array, k: number): void {
  for (let j = 0; j < k; j++) {
    const qj = q.subarray(j * n, (j + 1) * n);
    const c = dot(qj, v, n);
    for (let i = 0; i < n; i++) v[i] -= c * qj[i];
  }
}
