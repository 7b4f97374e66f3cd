/**
 * Uniform rank: `u_i = (rank_i - 0.5) / n`, where `rank` is the 1-based rank of x_i among
 * x_0..x_{n-1} and tied values share their average rank. Inputs must be finite. `out` may be `x`.
 *
 * The order comes from `argsortFinite`, a byte-wise radix sort of the IEEE-754 bit patterns (no
 * comparator calls, no allocation after warm-up); a block of equal values [i, j] then gets
 * `rank = (i + 1 + j + 1) / 2`.
 */
export function rankUniform(x: Float64Array, n: number, out: Float64Array, _scratch?: Float64Array): void {
  const order = argsortFinite(x, n);
  let i = 0;
  while (i < n) {
    const v = x[order[i]];
    let j = i;
    while (j + 1 < n && x[order[j + 1]] === v) j++;
    const u = uniformOfRank((i + 1 + j + 1) / 2, n);
    for (let k = i; k <= j; k++) out[order[k]] = u;
    i = j + 1;
  }
}

/** `(rank - 0.5) / n`, the one place this expression is written. */
export function uniformOfRank(rank: number, n: number): number {
  return (rank - 0.5) / n;
}

let keys = new Uint32Array(0);
let orderA = new Int32Array(0);
let orderB = new Int32Array(0);
const counts = new Int32Array(8 * 256);

/**
 * Indices 0..n-1 of finite `x` in ascending order (-0 just before +0), by LSD radix sort on the
 * 64-bit pattern made order-preserving (flip all bits of negatives, the sign bit of the rest).
 * Passes whose byte is the same for every value are skipped. The returned array is reused by the next call.
 */
export function argsortFinite(x: Float64Array, n: number): Int32Array {
  if (keys.length < 2 * n) {
    keys = new Uint32Array(2 * n);
    orderA = new Int32Array(n);
    orderB = new Int32Array(n);
  }
  // little-endian words: bits[2i] low, bits[2i+1] high (and sign)
  const bits = new Uint32Array(x.buffer, x.byteOffset, 2 * n);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    let lo = bits[2 * i];
    let hi = bits[2 * i + 1];
    if (hi & 0x80000000) {
      lo = ~lo >>> 0;
      hi = ~hi >>> 0;
    } else hi = (hi | 0x80000000) >>> 0;
    keys[2 * i] = lo;
    keys[2 * i + 1] = hi;
    for (let b = 0; b < 4; b++) {
      counts[b * 256 + ((lo >>> (8 * b)) & 255)]++;
      counts[(b + 4) * 256 + ((hi >>> (8 * b)) & 255)]++;
    }
  }
  let src = orderA;
  let dst = orderB;
  for (let i = 0; i < n; i++) src[i] = i;
  for (let pass = 0; pass < 8; pass++) {
    const base = pass * 256;
    const word = pass < 4 ? 0 : 1;
    const shift = 8 * (pass & 3);
    if (counts[base + ((keys[word] >>> shift) & 255)] === n) continue;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const c = counts[base + d];
      counts[base + d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const row = src[i];
      dst[counts[base + ((keys[2 * row + word] >>> shift) & 255)]++] = row;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
