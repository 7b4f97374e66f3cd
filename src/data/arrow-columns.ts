import { Float32, Float64, Int16, Int32, Int8, Type, Uint16, Uint32, Uint8, Utf8, makeData, makeVector, type Data, type DataType, type Vector } from "apache-arrow";
import type { NumericColumn } from "../domain/frame.js";

/**
 * Conversions between the Frame's column shapes (string[] and Float64Array) and arrow vectors,
 * built and read through the raw buffers: `vectorFromArray` and per-row `get` take seconds at
 * 500k rows, the buffers take milliseconds.
 */

/** A Utf8 vector of `values`, built from one offsets buffer and one bytes buffer. */
export function utf8Vector(values: string[]): Vector<Utf8> {
  return makeVector(makeData({ type: new Utf8(), length: values.length, ...utf8Buffers(values) }));
}

/** The two buffers of a Utf8 column of `values`: its offsets (int32, one more than the values) and its UTF-8 bytes. */
export function utf8Buffers(values: string[]): { valueOffsets: Int32Array; data: Buffer } {
  const data = Buffer.from(values.join(""), "utf8");
  if (data.length > 0x7fffffff) throw new Error("Utf8 column is larger than 2 GiB");
  const valueOffsets = new Int32Array(values.length + 1);
  const ascii = data.length === totalLength(values);
  for (let i = 0, at = 0; i < values.length; i++) {
    at += ascii ? values[i].length : Buffer.byteLength(values[i], "utf8");
    valueOffsets[i + 1] = at;
  }
  return { valueOffsets, data };
}

function totalLength(values: string[]): number {
  let n = 0;
  for (const v of values) n += v.length;
  return n;
}

/** A Float64 vector sharing `values`' memory (NaN stays NaN; no null bitmap). */
export function float64Vector(values: Float64Array): Vector<Float64> {
  return makeVector(makeData({ type: new Float64(), length: values.length, data: values }));
}

/** A vector of the column's own type sharing its memory (NaN stays NaN; no null bitmap). */
export function numericVector(values: NumericColumn): Vector {
  return makeVector(makeData({ type: arrowTypeOf(values), length: values.length, data: values } as Parameters<typeof makeData>[0]));
}

function arrowTypeOf(values: NumericColumn): DataType {
  if (values instanceof Float64Array) return new Float64();
  if (values instanceof Float32Array) return new Float32();
  if (values instanceof Int8Array) return new Int8();
  if (values instanceof Uint8Array) return new Uint8();
  if (values instanceof Int16Array) return new Int16();
  if (values instanceof Uint16Array) return new Uint16();
  if (values instanceof Int32Array) return new Int32();
  return new Uint32();
}

/** The strings of a string column (Utf8 or LargeUtf8 through the buffers, any other type through `get`). */
export function readStrings(name: string, vector: Vector): string[] {
  const out = new Array<string>(vector.length);
  let row = 0;
  for (const chunk of vector.data) {
    const typeId = chunk.type.typeId;
    if (typeId === Type.Utf8 || typeId === Type.LargeUtf8) {
      const offsets = chunk.valueOffsets as Int32Array | BigInt64Array;
      const bytes = chunk.values as Uint8Array;
      const text = isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1") : null;
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let i = 0; i < chunk.length; i++) {
        if (!chunk.getValid(i)) throw new Error(`Column '${name}' has a null at row ${row}`);
        const start = Number(offsets[i]);
        const end = Number(offsets[i + 1]);
        out[row++] = text !== null ? text.slice(start, end) : buf.toString("utf8", start, end);
      }
    } else {
      const v = makeVector(chunk);
      for (let i = 0; i < chunk.length; i++) {
        const x = v.get(i);
        if (x === null || x === undefined) throw new Error(`Column '${name}' has a null at row ${row}`);
        out[row++] = String(x);
      }
    }
  }
  return out;
}

/** A numeric column of any int or float width as Float64Array (nulls → NaN); zero-copy for one null-free Float64 chunk. */
export function readNumbers(name: string, vector: Vector): Float64Array {
  if (!isNumeric(vector.type)) throw new Error(`Column '${name}' has type ${vector.type}, expected an int or float column`);
  if (vector.data.length === 1 && vector.nullCount === 0 && vector.type.typeId === Type.Float) {
    const only = vector.data[0];
    if (only.values instanceof Float64Array) return only.values.subarray(0, only.length);
  }
  const out = new Float64Array(vector.length);
  let row = 0;
  for (const chunk of vector.data) {
    copyChunk(chunk, out, row);
    row += chunk.length;
  }
  return out;
}

/** ASCII bytes decode to one string sliced per row, far cheaper than one utf8 decode per row. */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] > 0x7f) return false;
  return true;
}

function isNumeric(type: DataType): boolean {
  return type.typeId === Type.Int || type.typeId === Type.Float;
}

/** Float16 values are raw bits in the buffer, so they go through the vector's own decoding. */
function copyChunk(chunk: Data, out: NumericColumn, at: number): void {
  const half = chunk.type.typeId === Type.Float && chunk.values instanceof Uint16Array ? makeVector(chunk) : null;
  const values = chunk.values;
  for (let i = 0; i < chunk.length; i++) {
    if (chunk.nullCount > 0 && !chunk.getValid(i)) out[at + i] = NaN;
    else out[at + i] = half ? (half.get(i) as number) : Number(values[i]);
  }
}

/**
 * A numeric column in its own type, filled chunk by chunk (`add`) into one array of the known row
 * count, as pandas reads it: 8- to 32-bit ints and float32/float64 stay as they are; float16
 * becomes float32 and 64-bit ints float64 (JavaScript has no typed array for them that the rest
 * of the house reads); an int column that turns out to hold a null becomes float64 with NaN there,
 * as pandas makes it.
 */
export class NumericColumnBuilder {
  private out: NumericColumn;
  private at = 0;

  constructor(
    private readonly name: string,
    type: DataType,
    rows: number,
  ) {
    if (!isNumeric(type)) throw new Error(`Column '${name}' has type ${type}, expected an int or float column`);
    this.out = new (ownArrayOf(type))(rows);
  }

  add(vector: Vector): void {
    for (const chunk of vector.data) {
      if (this.at + chunk.length > this.out.length) throw new Error(`Column '${this.name}' has more rows than its file's footer states`);
      if (chunk.nullCount > 0 && !(this.out instanceof Float64Array || this.out instanceof Float32Array)) this.out = Float64Array.from(this.out);
      const values = chunk.values as ArrayLike<number | bigint> & { constructor: unknown; subarray?: (a: number, b: number) => ArrayLike<number> };
      if (chunk.nullCount === 0 && values.constructor === this.out.constructor) this.out.set(values.subarray!(chunk.offset, chunk.offset + chunk.length), this.at);
      else copyChunk(chunk, this.out, this.at);
      this.at += chunk.length;
    }
  }

  done(): NumericColumn {
    if (this.at !== this.out.length) throw new Error(`Column '${this.name}' has ${this.at} rows, not the ${this.out.length} its file's footer states`);
    return this.out;
  }
}

function ownArrayOf(type: DataType): new (n: number) => NumericColumn {
  if (type.typeId === Type.Float) return (type as Float64 | Float32).precision === 2 ? Float64Array : Float32Array;
  const { bitWidth, isSigned } = type as Int8;
  if (bitWidth === 8) return isSigned ? Int8Array : Uint8Array;
  if (bitWidth === 16) return isSigned ? Int16Array : Uint16Array;
  if (bitWidth === 32) return isSigned ? Int32Array : Uint32Array;
  return Float64Array;
}
