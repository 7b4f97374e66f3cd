import { pearson } from "./pearson.js";
import { signedPower } from "./power.js";
import { centre } from "./vector.js";

/**
 * CORR = `pearson(s(g(p)), s(tc))`, with `g` the gaussianised uniform rank, `s(x) = sign(x)|x|^1.5`
 * and `tc = t - mean(t)`. The target side `s(tc)` is computed once per exped by `poweredTarget`;
 * `g(p)` once per prediction and shared with AIMC and NCORR, so this takes `gp` already.
 * `buf` may be `gp` when gp is no longer needed.
 */
export function corrOfGaussian(gp: Float64Array, n: number, poweredTc: Float64Array, buf: Float64Array): number {
  signedPower(gp, n, buf);
  return pearson(buf, poweredTc, n);
}

/** The target side of CORR: `tc = t - mean(t)` into `tc`, and `s(tc)` into `powered`. */
export function poweredTarget(t: Float64Array, n: number, tc: Float64Array, powered: Float64Array): void {
  centre(t, n, tc);
  signedPower(tc, n, powered);
}
