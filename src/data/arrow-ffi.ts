import { wasmMemory, type RecordBatch } from "./parquet-wasm.js";

/**
 * The columns of a parquet-wasm record batch read in place, through the Arrow C data interface
 * (`toFFI`), from the wasm memory: no IPC stream is written in wasm, copied out and parsed again.
 * Only the shapes a predictions file usually has are read this way (null-free Utf8 text, Float64
 * and Float32 numbers, any null-free integer); `null` says "use the IPC path" for anything else.
 * Every array returned is copied out of wasm memory (which may move once the batch is freed) into
 * the reader's own arrays, reused from batch to batch (see `FfiColumnReader`).
 *
 * wasm32 layouts (C data interface): ArrowSchema {format, name, metadata: ptr; flags, n_children:
 * i64; children, dictionary, release, private: ptr}; ArrowArray {length, null_count, offset,
 * n_buffers, n_children: i64; buffers, children, dictionary, release, private: ptr}.
 */
export type FfiColumn = { kind: "text"; bytes: Uint8Array; offsets: Int32Array } | { kind: "numbers"; values: Float64Array };

/**
 * Reads the named columns of batch after batch (`read`) into arrays it reuses from one batch to
 * the next (warm memory, no allocation per batch): a batch's columns are valid until the next read.
 */
export class FfiColumnReader {
  private readonly scratch = new Map<string, { bytes: Uint8Array; offsets: Int32Array; values: Float64Array }>();

  constructor(private readonly names: string[]) {}

  /** The named columns of `batch` and its row count, or null when one is of a shape not read here. */
  read(batch: RecordBatch): { length: number; columns: Map<string, FfiColumn> } | null {
    const ffi = batch.toFFI();
    try {
      const view = new DataView(wasmMemory().buffer);
      const schema = ffi.schemaAddr();
      const array = ffi.arrayAddr();
      const length = i64(view, array);
      if (i64(view, array + 16) !== 0) return null; // an offset into the batch's struct applies to every column: not read here
      const count = i64(view, schema + 24);
      const wanted = new Set(this.names);
      const columns = new Map<string, FfiColumn>();
      for (let c = 0; c < count; c++) {
        const field = view.getUint32(view.getUint32(schema + 32, true) + 4 * c, true);
        const name = cString(view, view.getUint32(field + 4, true));
        if (!wanted.has(name)) continue;
        if (view.getUint32(field + 36, true) !== 0) return null; // dictionary-encoded
        const column = this.column(name, view, cString(view, view.getUint32(field, true)), view.getUint32(view.getUint32(array + 44, true) + 4 * c, true));
        if (!column) return null;
        columns.set(name, column);
      }
      return columns.size === wanted.size ? { length, columns } : null;
    } finally {
      ffi.free();
    }
  }

  private column(name: string, view: DataView, format: string, array: number): FfiColumn | null {
    const length = i64(view, array);
    const nulls = i64(view, array + 8);
    const offset = i64(view, array + 16);
    const buffers = view.getUint32(array + 40, true);
    const buffer = (k: number) => view.getUint32(buffers + 4 * k, true);
    const memory = view.buffer;
    let own = this.scratch.get(name);
    if (!own) this.scratch.set(name, (own = { bytes: new Uint8Array(0), offsets: new Int32Array(0), values: new Float64Array(0) }));
    if (format === "u") {
      if (nulls !== 0) return null;
      if (own.offsets.length < length + 1) own.offsets = new Int32Array(length + 1);
      const offsets = own.offsets.subarray(0, length + 1);
      offsets.set(new Int32Array(memory, buffer(1) + 4 * offset, length + 1));
      const first = offsets[0];
      const size = offsets[length] - first;
      if (own.bytes.length < size) own.bytes = new Uint8Array(Math.max(size, 2 * own.bytes.length));
      const bytes = own.bytes.subarray(0, size);
      bytes.set(new Uint8Array(memory, buffer(2) + first, size));
      if (first !== 0) for (let i = 0; i <= length; i++) offsets[i] -= first;
      return { kind: "text", bytes, offsets };
    }
    const width = NUMBER_ARRAY[format]?.BYTES_PER_ELEMENT;
    if (width === undefined || (nulls !== 0 && format !== "g" && format !== "f")) return null;
    if (own.values.length < length) own.values = new Float64Array(length);
    const values = own.values.subarray(0, length);
    const at = buffer(1) + width * offset;
    if (format === "g" && at % 8 === 0) values.set(new Float64Array(memory, at, length));
    else values.set(numbersOf(format, new Uint8Array(memory, at, width * length).slice().buffer));
    if (nulls !== 0) {
      const valid = new Uint8Array(memory, buffer(0));
      for (let i = 0; i < length; i++) {
        const bit = offset + i;
        if ((valid[bit >> 3] & (1 << (bit & 7))) === 0) values[i] = NaN;
      }
    }
    return { kind: "numbers", values };
  }
}

/** The typed array of each number format read here (C data interface format strings); its element size is the format's width. */
const NUMBER_ARRAY: Record<string, Float64ArrayConstructor | Float32ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor | Int16ArrayConstructor | Uint16ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor | BigInt64ArrayConstructor | BigUint64ArrayConstructor> = {
  g: Float64Array,
  f: Float32Array,
  c: Int8Array,
  C: Uint8Array,
  s: Int16Array,
  S: Uint16Array,
  i: Int32Array,
  I: Uint32Array,
  l: BigInt64Array,
  L: BigUint64Array,
};

/** The numbers of a column's (copied, so aligned) bytes; 64-bit integers become Numbers. */
function numbersOf(format: string, raw: ArrayBuffer): ArrayLike<number> {
  const values = new NUMBER_ARRAY[format](raw);
  return values instanceof BigInt64Array || values instanceof BigUint64Array ? Array.from(values, Number) : values;
}

function i64(view: DataView, at: number): number {
  return Number(view.getBigInt64(at, true));
}

function cString(view: DataView, at: number): string {
  let end = at;
  while (view.getUint8(end) !== 0) end++;
  return Buffer.from(view.buffer, at, end - at).toString("utf8");
}
