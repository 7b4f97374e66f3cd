import { bucketArgsort } from "./bucket-sort.js";
import { argsortU64 } from "./radix.js";

/**
 * Uniform rank: `u_i = (rank_i - 0.5) / n`, where `rank` is the 1-based rank of x_i among
 * x_0..x_{n-1} and tied values share their average rank. Inputs must be finite. `out` may be `x`.
 *
 * The order comes from `argsortFinite` (a bucket sort, or a radix sort of the IEEE-754 bits); a
 * block of equal values [i, j] then gets `rank = (i + 1 + j + 1) / 2`.
 */
export function rankUniform(x: Float64Array, n: number, out: Float64Array): void {
  twiceRanks(x, n, out);
  for (let i = 0; i < n; i++) out[i] = uniformOfRank(out[i] / 2, n);
}

/**
 * `out_i = 2·rank_i` with the tie-averaged 1-based rank of x_i (an integer, handy as a table
 * index). Callers map it to their value in a second pass of their own rather than through a
 * callback per tie block, which the compiler could not inline. Inputs must be finite; `out` may be `x`.
 */
export function twiceRanks(x: Float64Array, n: number, out: Float64Array): void {
  const order = argsortFinite(x, n);
  let i = 0;
  while (i < n) {
    const v = x[order[i]];
    let j = i;
    while (j + 1 < n && x[order[j + 1]] === v) j++;
    const twice = i + 1 + j + 1;
    for (let k = i; k <= j; k++) out[order[k]] = twice;
    i = j + 1;
  }
}

/** `(rank - 0.5) / n`, the one place this expression is written. */
export function uniformOfRank(rank: number, n: number): number {
  return (rank - 0.5) / n;
}

let keys = new Uint32Array(0);

/**
 * Indices 0..n-1 of finite `x` in ascending order, ties in index order (-0 and +0 tie): by
 * `bucketArgsort`, or when the values are too unevenly spread for it, `argsortU64` on the 64-bit
 * pattern made order-preserving (flip all bits of negatives, the sign bit of the rest; -0 keyed
 * as +0). The returned array is reused by the next call.
 */
export function argsortFinite(x: Float64Array, n: number): Int32Array {
  const bucketed = bucketArgsort(x, n);
  if (bucketed) return bucketed;
  if (keys.length < 2 * n) keys = new Uint32Array(2 * n);
  // little-endian words: bits[2i] low, bits[2i+1] high (and sign)
  const bits = new Uint32Array(x.buffer, x.byteOffset, 2 * n);
  for (let i = 0; i < n; i++) {
    const lo = bits[2 * i];
    const hi = bits[2 * i + 1];
    const negative = (hi & 0x80000000) !== 0 && (lo !== 0 || hi !== 0x80000000); // -0 is keyed as +0
    keys[2 * i] = negative ? ~lo >>> 0 : lo;
    keys[2 * i + 1] = negative ? ~hi >>> 0 : (hi | 0x80000000) >>> 0;
  }
  return argsortU64(keys, n);
}
