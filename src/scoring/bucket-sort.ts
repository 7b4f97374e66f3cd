let bucketBuf = new Int32Array(0);
let startsBuf = new Int32Array(0);
let orderBuf = new Int32Array(0);

/** Insertion-sort moves per value beyond which `bucketArgsort` gives up (values crowd into few buckets). */
const MOVES_PER_VALUE = 16;

/**
 * Indices 0..n-1 of finite `x` in ascending order, ties in index order, or null when the values
 * are too unevenly spread (the caller then radix-sorts). Value x goes to bucket
 * `floor((x - min)·(n-1)/(max - min))`, which never decreases as x grows (each operation rounds
 * monotonically), so ordering each bucket orders the whole: a stable insertion sort, whose total
 * work is capped at MOVES_PER_VALUE·n. About four passes over the values for spread-out data.
 * The returned array (its first n entries) is reused by the next call.
 */
export function bucketArgsort(x: Float64Array, n: number): Int32Array | null {
  if (orderBuf.length < n) {
    bucketBuf = new Int32Array(n);
    startsBuf = new Int32Array(n + 1);
    orderBuf = new Int32Array(n);
  }
  // locals, not the module's variables, so the compiled loops keep them in registers
  const bucketOf = bucketBuf;
  const starts = startsBuf;
  const order = orderBuf;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const scale = max > min ? (n - 1) / (max - min) : 0;
  if (!Number.isFinite(scale * (max - min))) return null; // a range or scale beyond double range
  starts.fill(0, 0, n + 1);
  for (let i = 0; i < n; i++) {
    const b = Math.min(n - 1, Math.floor((x[i] - min) * scale));
    bucketOf[i] = b;
    starts[b + 1]++;
  }
  for (let b = 0; b < n; b++) starts[b + 1] += starts[b];
  for (let i = 0; i < n; i++) order[starts[bucketOf[i]]++] = i;
  // starts[b] is now the end of bucket b (= the start of bucket b + 1)
  let budget = MOVES_PER_VALUE * n;
  let begin = 0;
  for (let b = 0; b < n; b++) {
    const end = starts[b];
    for (let p = begin + 1; p < end; p++) {
      const row = order[p];
      const v = x[row];
      let q = p;
      while (q > begin && x[order[q - 1]] > v) {
        order[q] = order[q - 1];
        q--;
      }
      order[q] = row;
      budget -= p - q;
    }
    if (budget < 0) return null;
    begin = end;
  }
  return order;
}
