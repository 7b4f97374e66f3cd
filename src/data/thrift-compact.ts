/** Thrown for parquet bytes that do not decode as the format says; the message says what is wrong and where. */
export class ParquetFormatError extends Error {}

export type Value = number | boolean | Struct | Value[];
export type Struct = Map<number, Value>;

/**
 * A Thrift compact-protocol reader over untrusted bytes (a parquet footer, a page header):
 * structs become field id → value maps, integers numbers (beyond 2^53 approximate, which is
 * enough to compare with a limit), binaries are skipped (their length only). `what` names the
 * bytes in errors ("its footer", "the page header at byte 4"). Any read past the end, unknown type
 * or nesting deeper than MAX_DEPTH throws ParquetFormatError.
 */
export class CompactReader {
  private at = 0;

  constructor(
    private readonly bytes: Uint8Array,
    readonly what: string,
  ) {}

  /** Bytes read so far. */
  get position(): number {
    return this.at;
  }

  struct(depth = 0): Struct {
    if (depth > MAX_DEPTH) throw this.error("nests too deeply");
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

  error(problem: string): ParquetFormatError {
    return new ParquetFormatError(`${this.what} ${problem}`);
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
        throw this.error(`has an unknown Thrift type ${type}`);
    }
  }

  private list(depth: number): Value[] {
    const header = this.byte();
    const size = header >> 4 === 15 ? this.varint() : header >> 4;
    const type = header & 0x0f;
    if (size > this.bytes.length - this.at) throw this.error(`declares a list of ${size} items past its end`);
    const items: Value[] = [];
    for (let i = 0; i < size; i++) items.push(type === 1 || type === 2 ? this.byte() === 1 : this.value(type, depth + 1));
    return items;
  }

  /** A map's entries are skipped (parquet's maps hold nothing the checks need). */
  private map(depth: number): number {
    const size = this.varint();
    if (size === 0) return 0;
    if (size > this.bytes.length - this.at) throw this.error(`declares a map of ${size} entries past its end`);
    const types = this.byte();
    for (let i = 0; i < size; i++) {
      this.value(types >> 4, depth + 1);
      this.value(types & 0x0f, depth + 1);
    }
    return size;
  }

  private byte(): number {
    if (this.at >= this.bytes.length) throw this.error("ends too early");
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
    throw this.error("has an overlong integer");
  }

  private skip(n: number): number {
    if (n > this.bytes.length - this.at) throw this.error("ends too early");
    this.at += n;
    return n;
  }
}

/** Struct nesting deeper than any parquet footer or page header needs. */
const MAX_DEPTH = 16;

function zigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

export function listOf(v: Value | undefined, what: string): Value[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ParquetFormatError(`${what} has a malformed list`);
  return v;
}

export function structOf(v: Value, what: string): Struct {
  if (!(v instanceof Map)) throw new ParquetFormatError(`${what} has a malformed struct`);
  return v;
}

/** A size or count: absent is 0, a negative one is malformed. */
export function count(v: Value | undefined, what: string): number {
  if (v === undefined) return 0;
  if (typeof v !== "number" || v < 0) throw new ParquetFormatError(`${what} has a malformed count`);
  return v;
}
