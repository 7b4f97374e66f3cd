import { bucketArgsort } from "./bucket-sort.js";
import { DuplicateIdError } from "./duplicate-id.js";
import { argsortU64 } from "./radix.js";

/** Longest hex id that fits a 64-bit key. */
export const MAX_HEX = 16;
/** UTF-16 code unit (or byte) → lowercase hex digit value, -1 for any other unit. */
export const DIGIT = new Int8Array(65536).fill(-1);
for (let d = 0; d < 16; d++) DIGIT["0123456789abcdef".charCodeAt(d)] = d;

/**
 * Ids that are all lowercase hexadecimal of one length `width` (1..16), as 64-bit keys:
 * `keys[2i]` the value of id i's last 8 digits, `keys[2i + 1]` of the digits before them. A file
 * reader makes them from the ids' bytes, so no string per row is ever made.
 */
export interface HexKeys {
  width: number;
  keys: Uint32Array;
}

/** Scratch for the keys of one call, reused by the next (ids are sorted once per exped). */
let keysBuf = new Uint32Array(0);
let approxBuf = new Float64Array(0);

/**
 * The byte order of ids that are all lowercase hexadecimal of one length ≤ 16 (the usual 16-hex
 * row ids), or null when they are not: their keys (`HexKeys`, read digit by digit from the
 * strings) ordered by `hexKeyOrder`. Returns sorted position → original row; a repeat throws
 * DuplicateIdError at the second copy in row order, like `indexIds`.
 */
export function hexIdOrder(ids: string[]): Int32Array | null {
  const n = ids.length;
  const length = n === 0 ? 0 : ids[0].length;
  if (length > MAX_HEX) return null;
  if (keysBuf.length < 2 * n) keysBuf = new Uint32Array(2 * n);
  const keys = keysBuf;
  const split = Math.max(0, length - 8); // the last 8 digits make the low word
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (id.length !== length) return null;
    const hi = hexValue(id, 0, split);
    const lo = hexValue(id, split, length);
    if (hi < 0 || lo < 0) return null;
    keys[2 * i] = lo;
    keys[2 * i + 1] = hi;
  }
  return keyOrder(keys, n, (row) => ids[row]);
}

/** `hexIdOrder` of the ids `ids` holds as keys; a repeated id is named as its `width` hex digits. */
export function hexKeyOrder({ width, keys }: HexKeys): Int32Array {
  return keyOrder(keys, keys.length / 2, (row) => hexId({ width, keys }, row));
}

/** Id `row` of `ids` as its string: its key in `width` lowercase hex digits. */
export function hexId({ width, keys }: HexKeys, row: number): string {
  const hi = keys[2 * row + 1].toString(16);
  const lo = keys[2 * row].toString(16);
  const digits = width > 8 ? hi + lo.padStart(8, "0") : lo;
  return digits.padStart(width, "0");
}

/**
 * For ids of one length byte order is numeric order of the keys ('0'..'9' < 'a'..'f'), so the
 * keys are sorted with no string comparison: `bucketArgsort` on the key as a double (which never
 * decreases as the key grows), equal doubles then ordered by the exact key; `argsortU64` when the
 * keys crowd together. Equal keys are equal ids: the first repeat in row order throws.
 */
function keyOrder(keys: Uint32Array, n: number, idOf: (row: number) => string): Int32Array {
  if (approxBuf.length < n) approxBuf = new Float64Array(n);
  const approx = approxBuf;
  for (let i = 0; i < n; i++) approx[i] = keys[2 * i + 1] * 4294967296 + keys[2 * i];
  const bucketed = bucketArgsort(approx, n);
  const order = (bucketed ?? argsortU64(keys, n)).slice(0, n);
  if (bucketed) orderEqualApprox(order, approx, keys);
  let repeat = n;
  for (let k = 1; k < n; k++) {
    const a = order[k - 1];
    const b = order[k];
    if (keys[2 * a] === keys[2 * b] && keys[2 * a + 1] === keys[2 * b + 1] && b < repeat) repeat = b;
  }
  if (repeat < n) throw new DuplicateIdError(idOf(repeat), repeat);
  return order;
}

/** The value of the hex digits id[from..to) (at most 8), or -1 if one is not a lowercase hex digit. */
function hexValue(id: string, from: number, to: number): number {
  let v = 0;
  for (let c = from; c < to; c++) {
    const d = DIGIT[id.charCodeAt(c)];
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Orders each run of equal `approx` by the exact key (stable insertion sort; runs are rare and short). */
function orderEqualApprox(order: Int32Array, approx: Float64Array, keys: Uint32Array): void {
  const after = (a: number, b: number) => keys[2 * a + 1] > keys[2 * b + 1] || (keys[2 * a + 1] === keys[2 * b + 1] && keys[2 * a] > keys[2 * b]);
  for (let p = 1; p < order.length; p++) {
    const row = order[p];
    let q = p;
    while (q > 0 && approx[order[q - 1]] === approx[row] && after(order[q - 1], row)) {
      order[q] = order[q - 1];
      q--;
    }
    order[q] = row;
  }
}
