import { packIds, type PackedIds } from "../scoring/packed-ids.js";
import { DIGIT, hexId, MAX_HEX, type HexKeys } from "../scoring/hex-ids.js";
import type { RowBatch } from "./row-batch.js";

/**
 * The rows of one exped gathered from a file's batches: ids, source rows and numeric columns,
 * grown by doubling. While every id is lowercase hex of one width (the usual 16-hex row ids) each
 * is read into a 64-bit key as it comes (`HexKeys`), so the scorer never needs their strings;
 * from the first id that is not, ids are kept as bytes (those before it written back from their keys).
 */
export class ExpedRows {
  private n = 0;
  private idBytes = new Uint8Array(0);
  private idEnds = new Int32Array(0);
  private rows: Int32Array;
  private columns: Float64Array[];
  /** The ids' keys while all are hex of one width; null once one is not. */
  private keys: Uint32Array | null;
  private width = -1;

  /** `capacity`: the rows expected (the previous exped's count is a good guess): arrays of exactly that size are handed over as they are. */
  constructor(columns: number, capacity = 4096) {
    this.rows = new Int32Array(capacity);
    this.keys = new Uint32Array(2 * capacity);
    this.columns = Array.from({ length: columns }, () => new Float64Array(capacity));
  }

  /** Appends rows [from, to) of `batch`, whose first row is row `first` of the file. */
  append(batch: RowBatch, from: number, to: number, first: number): void {
    const count = to - from;
    if (this.n + count > this.rows.length) this.grow(this.n + count);
    for (let i = 0; i < count; i++) this.rows[this.n + i] = first + from + i;
    const keyed = this.keys !== null && this.readKeys(batch, from, to);
    if (!keyed) this.appendBytes(batch, from, to);
    batch.columns.forEach((col, c) => this.columns[c].set(col.subarray(from, to), this.n));
    this.n += count;
  }

  /** Appends the id bytes of rows [from, to) of `batch` at row this.n. */
  private appendBytes(batch: RowBatch, from: number, to: number): void {
    const count = to - from;
    if (this.idEnds.length < this.n + count) this.idEnds = grown(this.idEnds, this.n + count);
    const bytesFrom = batch.idOffsets[from];
    const bytes = batch.idOffsets[to] - bytesFrom;
    const used = this.n === 0 ? 0 : this.idEnds[this.n - 1];
    if (used + bytes > this.idBytes.length) this.idBytes = grown(this.idBytes, used + bytes);
    this.idBytes.set(batch.idBytes.subarray(bytesFrom, bytesFrom + bytes), used);
    for (let i = 0; i < count; i++) this.idEnds[this.n + i] = used + batch.idOffsets[from + i + 1] - bytesFrom;
  }

  /**
   * The exped's ids (keys, else packed: one string, not one per row), its source rows and its
   * columns, each in an array of its own (the buffers themselves when they are full).
   */
  take(): { ids: PackedIds | HexKeys; rows: Int32Array; columns: Float64Array[] } {
    const n = this.n;
    const own = <T extends Int32Array | Uint32Array | Float64Array>(a: T, size: number): T => (a.length === size ? a : (a.slice(0, size) as T));
    const ids = this.keys && this.width > 0 ? { width: this.width, keys: own(this.keys, 2 * n) } : this.packedIds();
    return { ids, rows: own(this.rows, n), columns: this.columns.map((col) => own(col, n)) };
  }

  /**
   * Reads the keys of rows [from, to) of `batch` (appended at this.n); false when one of them is
   * not hex of the width: keys are then given up, the ids before these rows written out as bytes.
   */
  private readKeys(batch: RowBatch, from: number, to: number): boolean {
    const keys = this.keys!;
    const { idBytes: bytes, idOffsets: offsets } = batch;
    if (this.width < 0) this.width = offsets[from + 1] - offsets[from];
    const width = this.width;
    if (width === 0 || width > MAX_HEX) return this.giveUpKeys();
    const split = Math.max(0, width - 8); // the last 8 digits make the low word
    for (let i = from, k = 2 * this.n; i < to; i++, k += 2) {
      const start = offsets[i];
      if (offsets[i + 1] - start !== width) return this.giveUpKeys();
      let hi = 0;
      let lo = 0;
      let bad = 0;
      for (let c = 0; c < split; c++) {
        const d = DIGIT[bytes[start + c]];
        bad |= d;
        hi = hi * 16 + d;
      }
      for (let c = split; c < width; c++) {
        const d = DIGIT[bytes[start + c]];
        bad |= d;
        lo = lo * 16 + d;
      }
      if (bad < 0) return this.giveUpKeys();
      keys[k] = lo;
      keys[k + 1] = hi;
    }
    return true;
  }

  /** Writes the ids gathered so far as bytes (their keys in `width` hex digits) and drops the keys. */
  private giveUpKeys(): false {
    const ids = { width: this.width, keys: this.keys! };
    this.keys = null;
    const n = this.n;
    this.idEnds = new Int32Array(Math.max(n, 16));
    this.idBytes = new Uint8Array(Math.max(n * this.width, 16));
    const text = Buffer.from(this.idBytes.buffer);
    for (let i = 0; i < n; i++) {
      text.write(hexId(ids, i), i * this.width, "latin1");
      this.idEnds[i] = (i + 1) * this.width;
    }
    return false;
  }

  /** Fixed-width ASCII ids become one latin1 string; anything else is decoded id by id. */
  private packedIds(): PackedIds {
    const n = this.n;
    const total = n === 0 ? 0 : this.idEnds[n - 1];
    const bytes = Buffer.from(this.idBytes.buffer, this.idBytes.byteOffset, total);
    const width = n === 0 ? 0 : this.idEnds[0];
    let even = width > 0;
    for (let i = 1; i < n && even; i++) even = this.idEnds[i] - this.idEnds[i - 1] === width;
    if (even && isAscii(bytes)) return { text: bytes.toString("latin1"), width, ends: null };
    return packIds(Array.from({ length: n }, (_, i) => bytes.toString("utf8", i === 0 ? 0 : this.idEnds[i - 1], this.idEnds[i])));
  }

  private grow(size: number): void {
    const size2 = Math.max(size, 2 * this.rows.length);
    this.rows = grown(this.rows, size2);
    if (this.keys) this.keys = grown(this.keys, 2 * size2);
    this.columns = this.columns.map((col) => grown(col, size2));
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

function grown<T extends Uint8Array | Int32Array | Uint32Array | Float64Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(size, 2 * a.length));
  out.set(a);
  return out;
}
