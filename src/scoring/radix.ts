let orderA = new Int32Array(0);
let orderB = new Int32Array(0);
const counts = new Int32Array(8 * 256);

/**
 * Indices 0..n-1 ordered by unsigned 64-bit keys (`keys[2i]` the low word, `keys[2i+1]` the high
 * word), ties in index order: a stable LSD radix sort, one pass per byte, no comparator calls.
 * Passes whose byte is the same for every key are skipped. The returned array (its first n
 * entries) is reused by the next call.
 */
export function argsortU64(keys: Uint32Array, n: number): Int32Array {
  if (orderA.length < n) {
    orderA = new Int32Array(n);
    orderB = new Int32Array(n);
  }
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const lo = keys[2 * i];
    const hi = keys[2 * i + 1];
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
    if (n === 0 || counts[base + ((keys[word] >>> shift) & 255)] === n) continue;
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
