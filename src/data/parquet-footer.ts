/**
 * What a parquet file's footer claims about its size, read without decoding any data: a few
 * hundred bytes of Thrift (compact protocol) at the end of the file. A file whose few kilobytes
 * decode to gigabytes (a "decompression bomb") shows it here, before the decoder allocates.
 *
 * Read from FileMetaData (parquet.thrift): 2 `schema` (leaf elements lack field 5 `num_children`),
 * 3 `num_rows`, 4 `row_groups`; RowGroup: 1 `columns`, 2 `total_byte_size`, 3 `num_rows`;
 * ColumnChunk: 3 `meta_data`, whose field 6 is `total_uncompressed_size`. Where the footer states
 * a size twice (file and row groups, row group and column chunks) the larger is taken, so a footer
 * that lies in one place is still bounded by the other.
 */
export interface ParquetFooter {
  rows: number;
  columns: number;
  uncompressed_bytes: number;
}

/** Thrown for a file that is not parquet or whose footer does not decode; the message says why. */
export class ParquetFooterError extends Error {}

const MAGIC = "PAR1";

export function readParquetFooter(bytes: Uint8Array): ParquetFooter {
  if (bytes.length < 12 || ascii(bytes, 0) !== MAGIC || ascii(bytes, bytes.length - 4) !== MAGIC) {
    throw new ParquetFooterError("it does not start and end with the parquet magic PAR1");
  }
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 8, true);
  if (length > bytes.length - 12) throw new ParquetFooterError(`its footer length ${length} runs past the start of the file`);
  const meta = new CompactReader(bytes.subarray(bytes.length - 8 - length, bytes.length - 8)).struct(0);

  const schema = listOf(meta.get(2));
  const columns = schema.slice(1).filter((element) => !structOf(element).has(5)).length;
  let groupRows = 0;
  let uncompressed = 0;
  for (const group of listOf(meta.get(4)).map(structOf)) {
    groupRows += count(group.get(3));
    let chunks = 0;
    for (const chunk of listOf(group.get(1)).map(structOf)) {
      const chunkMeta = chunk.get(3);
      if (chunkMeta !== undefined) chunks += count(structOf(chunkMeta).get(6));
    }
    uncompressed += Math.max(count(group.get(2)), chunks);
  }
  return { rows: Math.max(count(meta.get(3)), groupRows), columns, uncompressed_bytes: uncompressed };
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}

type Value = number | boolean | Struct | Value[];
type Struct = Map<number, Value>;

function listOf(v: Value | undefined): Value[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ParquetFooterError("its footer has a malformed list");
  return v;
}

function structOf(v: Value): Struct {
  if (!(v instanceof Map)) throw new ParquetFooterError("its footer has a malformed struct");
  return v;
}

/** A size or count: absent is 0, a negative one is malformed. */
function count(v: Value | undefined): number {
  if (v === undefined) return 0;
  if (typeof v !== "number" || v < 0) throw new ParquetFooterError("its footer has a malformed count");
  return v;
}

/** Nesting deeper than any parquet footer needs. */
const MAX_DEPTH = 16;

/**
 * A Thrift compact-protocol reader over the footer bytes: structs become field id → value maps,
 * integers numbers (beyond 2^53 approximate, which is enough to compare with a limit), binaries
 * are skipped (their length only). Any read past the end or unknown type throws ParquetFooterError.
 */
class CompactReader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  struct(depth: number): Struct {
    if (depth > MAX_DEPTH) throw new ParquetFooterError("its footer nests too deeply");
    const fields: Struct = new Map();
    let id = 0;
    for (;;) {
      const header = this.byte();
      const type = header & 0x0f;
      if (type === 0) return fields;
      const delta = header >> 4;
      id = delta === 0 ? zigzag(this.varint()) : id + delta;
      fields.set(id, this.value(type, depth));
    }
  }

  private value(type: number, depth: number): Value {
    switch (type) {
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return this.byte();
      case 4:
      case 5:
      case 6:
        return zigzag(this.varint());
      case 7:
        return this.skip(8);
      case 8:
        return this.skip(this.varint());
      case 9:
      case 10:
        return this.list(depth);
      case 11:
        return this.map(depth);
      case 12:
        return this.struct(depth + 1);
      default:
        throw new ParquetFooterError(`its footer has an unknown Thrift type ${type}`);
    }
  }

  private list(depth: number): Value[] {
    const header = this.byte();
    const size = header >> 4 === 15 ? this.varint() : header >> 4;
    const type = header & 0x0f;
    if (size > this.bytes.length - this.at) throw new ParquetFooterError(`its footer declares a list of ${size} items past its end`);
    const items: Value[] = [];
    for (let i = 0; i < size; i++) items.push(type === 1 || type === 2 ? this.byte() === 1 : this.value(type, depth + 1));
    return items;
  }

  /** A map's entries are skipped (the footer's maps hold nothing the limits need). */
  private map(depth: number): number {
    const size = this.varint();
    if (size === 0) return 0;
    if (size > this.bytes.length - this.at) throw new ParquetFooterError(`its footer declares a map of ${size} entries past its end`);
    const types = this.byte();
    for (let i = 0; i < size; i++) {
      this.value(types >> 4, depth + 1);
      this.value(types & 0x0f, depth + 1);
    }
    return size;
  }

  private byte(): number {
    if (this.at >= this.bytes.length) throw new ParquetFooterError("its footer ends too early");
    return this.bytes[this.at++];
  }

  private varint(): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
    throw new ParquetFooterError("its footer has an overlong integer");
  }

  private skip(n: number): number {
    if (n > this.bytes.length - this.at) throw new ParquetFooterError("its footer ends too early");
    this.at += n;
    return n;
  }
}

function zigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}
