import { corrOfGaussian } from "./corr.js";
import { gaussianise } from "./gaussian.js";
import { residualise, type CoreFit } from "./core-fit.js";
import { std } from "./vector.js";

/** Core-feature value that means "missing" in the datasets. */
export const MISSING_FEATURE = -1.0;

/**
 * NCORR = CORR of the residual `r = gp - X·β`, `X = [core features | 1]`, β the least-squares
 * solution of `X·β ≈ gp`, `gp = g(p)`. The residual is ranked and gaussianised again. If
 * `std(r) < 1e-9·std(gp)` (the prediction is explained by the features) NCORR is 0.
 *
 * The fit (`coreFit`, built once per exped and row set) drops dependent columns, so constant or
 * duplicated features are fine. `r` is scratch of length ≥ n.
 */
export function ncorrOfGaussian(
  gp: Float64Array,
  n: number,
  fit: CoreFit,
  poweredTc: Float64Array,
  r: Float64Array,
): number {
  if (n < 2) return 0;
  residualise(gp, n, fit, r);
  const spread = std(gp, n);
  if (spread === 0 || std(r, n) < 1e-9 * spread) return 0;
  gaussianise(r, n, r);
  return corrOfGaussian(r, n, poweredTc, r);
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
