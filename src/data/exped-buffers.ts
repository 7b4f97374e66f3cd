import { packIds, type PackedIds } from "../scoring/backtest.js";
import type { RowBatch } from "./row-batch.js";

/** The rows of one exped gathered from a file's batches: id bytes, source rows and numeric columns, grown by doubling. */
export class ExpedRows {
  private n = 0;
  private idBytes = new Uint8Array(1 << 16);
  private idEnds: Int32Array;
  private rows: Int32Array;
  private columns: Float64Array[];

  constructor(columns: number, capacity = 4096) {
    this.idEnds = new Int32Array(capacity);
    this.rows = new Int32Array(capacity);
    this.columns = Array.from({ length: columns }, () => new Float64Array(capacity));
  }

  /** Appends rows [from, to) of `batch`, whose first row is row `first` of the file. */
  append(batch: RowBatch, from: number, to: number, first: number): void {
    const count = to - from;
    if (this.n + count > this.rows.length) this.grow(this.n + count);
    const bytesFrom = batch.idOffsets[from];
    const bytes = batch.idOffsets[to] - bytesFrom;
    const used = this.n === 0 ? 0 : this.idEnds[this.n - 1];
    if (used + bytes > this.idBytes.length) this.idBytes = grown(this.idBytes, used + bytes);
    this.idBytes.set(batch.idBytes.subarray(bytesFrom, bytesFrom + bytes), used);
    for (let i = 0; i < count; i++) {
      this.idEnds[this.n + i] = used + batch.idOffsets[from + i + 1] - bytesFrom;
      this.rows[this.n + i] = first + from + i;
    }
    batch.columns.forEach((col, c) => this.columns[c].set(col.subarray(from, to), this.n));
    this.n += count;
  }

  /** The exped's ids packed (one string, not one per row), its source rows and its columns, each in an array of its own. */
  take(): { ids: PackedIds; rows: Int32Array; columns: Float64Array[] } {
    const n = this.n;
    return { ids: this.packedIds(), rows: this.rows.slice(0, n), columns: this.columns.map((col) => col.slice(0, n)) };
  }

  /** Fixed-width ASCII ids (the usual hex ids) become one latin1 string; anything else is decoded id by id. */
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
    this.idEnds = grown(this.idEnds, size);
    this.rows = grown(this.rows, size);
    this.columns = this.columns.map((col) => grown(col, size));
  }
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

function grown<T extends Uint8Array | Int32Array | Float64Array>(a: T, size: number): T {
  const out = new (a.constructor as new (n: number) => T)(Math.max(size, 2 * a.length));
  out.set(a);
  return out;
}
