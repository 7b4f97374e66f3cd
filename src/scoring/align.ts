/**
 * Row alignment. Every term is computed over rows matched by `id` and sorted by id in byte order
 * (UTF-8 byte order = code point order), so no result depends on the order rows arrive in.
 */
import { DuplicateIdError } from "./duplicate-id.js";
import { hexId, hexIdOrder, hexKeyOrder, type HexKeys } from "./hex-ids.js";

export { DuplicateIdError };

/** The ids of one exped in byte order, with the way back to the caller's rows. */
export interface IdOrder {
  /** The caller's ids, as given (kept to recognise predictions in the same row order). */
  original: string[];
  /** sorted position → original row; null when the input was already in order. */
  order: Int32Array | null;
  /**
   * original row → sorted position (the inverse of `order`). Reordering a column by it reads the
   * caller's rows front to back, which the memory prefetcher follows; reading them in `order`
   * fetches every cache line of a large frame's column at random.
   */
  position: Int32Array | null;
  /** ids in byte order. */
  sorted: string[];
}

/** Sorts ids in byte order (by `hexIdOrder` when they are hex); throws DuplicateIdError on a repeated id. */
export function orderIds(ids: string[]): IdOrder {
  const hex = hexIdOrder(ids);
  if (hex && isIdentity(hex)) return { original: ids, order: null, position: null, sorted: ids };
  if (hex) return { original: ids, order: hex, position: inverse(hex), sorted: pickIds(ids, hex) };
  const n = ids.length;
  const byCodeUnit = !ids.some(hasSurrogateOrder);
  const before = byCodeUnit ? (a: string, b: string) => a < b : (a: string, b: string) => compareIds(a, b) < 0;
  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) if (!before(ids[i - 1], ids[i])) inOrder = false;
  if (inOrder) return { original: ids, order: null, position: null, sorted: ids };
  const position = indexIds(ids);
  const sorted = byCodeUnit ? ids.slice().sort() : ids.slice().sort(compareIds);
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = position.get(sorted[k])!;
  return { original: ids, order, position: inverse(order), sorted };
}

/**
 * `orderIds` of ids held as keys (`HexKeys`, a file reader's): ordered without a string per row;
 * `original` and `sorted` are made only when something asks for them.
 */
export function orderHexKeys(ids: HexKeys): IdOrder {
  const hex = hexKeyOrder(ids);
  const identity = isIdentity(hex);
  let original: string[] | null = null;
  let sorted: string[] | null = null;
  return {
    order: identity ? null : hex,
    position: identity ? null : inverse(hex),
    get original() {
      return (original ??= Array.from({ length: hex.length }, (_, i) => hexId(ids, i)));
    },
    get sorted() {
      return (sorted ??= identity ? this.original : pickIds(this.original, hex));
    },
  };
}

/** id → index; throws DuplicateIdError on a repeated id. */
export function indexIds(ids: string[]): Map<string, number> {
  const position = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) {
    if (position.has(ids[i])) throw new DuplicateIdError(ids[i], i);
    position.set(ids[i], i);
  }
  return position;
}

/** Byte-order (code point) comparison of two ids. */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/**
 * `values` (keyed by `ids`) placed at the positions of `index` (id → position) in an array of
 * `size`; positions with no value are NaN, ids not in the index are ignored.
 */
export function alignValues(
  index: Map<string, number>,
  size: number,
  ids: readonly string[],
  values: Float64Array,
  out: Float64Array,
): void {
  out.fill(NaN, 0, size);
  const seen = new Uint8Array(size);
  for (let i = 0; i < ids.length; i++) {
    const at = index.get(ids[i]);
    if (at === undefined) continue;
    if (seen[at]) throw new DuplicateIdError(ids[i], i);
    seen[at] = 1;
    out[at] = values[i];
  }
}

function inverse(order: Int32Array): Int32Array {
  const out = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) out[order[k]] = k;
  return out;
}

function pickIds(ids: string[], order: Int32Array): string[] {
  const out = new Array<string>(order.length);
  for (let k = 0; k < order.length; k++) out[k] = ids[order[k]];
  return out;
}

function isIdentity(order: Int32Array): boolean {
  for (let k = 0; k < order.length; k++) if (order[k] !== k) return false;
  return true;
}

/** UTF-16 code-unit order differs from code point order only when a surrogate meets U+E000..U+FFFF. */
function hasSurrogateOrder(id: string): boolean {
  return /[\ud800-\uffff]/.test(id);
}

/** Surrogates (U+D800..DFFF, astral code points) sort after U+E000..U+FFFF in code point order. */
function codePointRank(unit: number): number {
  return unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
