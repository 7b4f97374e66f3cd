import { refuse, type ServiceError } from "../domain/errors.js";

/**
 * A bounds-checked reader over a pickle byte stream. Every read either returns bytes that exist
 * or throws `model_pickle_invalid` naming the offset, so a truncated stream can never read past
 * the end or allocate more than the file holds.
 */
export class PickleCursor {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  invalid(reason: string): ServiceError {
    return refuse("model_pickle_invalid", { reason: `${reason} (at byte ${this.pos})` });
  }

  take(n: number): Uint8Array {
    if (n < 0 || n > this.bytes.length - this.pos) throw this.invalid("the stream is truncated");
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  u8(): number {
    return this.take(1)[0];
  }

  /** Little-endian unsigned integer of `width` bytes (1, 2, 4 or 8); 8-byte values beyond 2^53 fail the later bounds check. */
  uint(width: number): number {
    const b = this.take(width);
    let v = 0;
    for (let i = width - 1; i >= 0; i--) v = v * 256 + b[i];
    return v;
  }

  int32(): number {
    const b = this.take(4);
    return b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);
  }

  /** FRAME: an 8-byte length that must fit in the rest of the stream; the opcodes inside are read as usual. */
  frame(): void {
    const n = this.uint(8);
    if (n > this.bytes.length - this.pos) throw this.invalid("a frame runs past the end of the stream");
  }

  /** The bytes up to the next `\n` (protocol 0/1 text arguments), without the newline. */
  line(): Uint8Array {
    const end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0) throw this.invalid("a text argument has no terminating newline");
    const out = this.bytes.subarray(this.pos, end);
    this.pos = end + 1;
    return out;
  }

  /** A length-prefixed UTF-8 string (BINUNICODE and friends). */
  utf8(n: number): string {
    const raw = this.take(n);
    try {
      return UTF8.decode(raw);
    } catch {
      throw this.invalid("a string is not valid UTF-8");
    }
  }

  /** A non-negative decimal memo index written as text (GET, PUT). */
  decimalLine(): number {
    const text = latin1(this.line());
    if (!/^\d{1,15}$/.test(text)) throw this.invalid(`'${text.slice(0, 20)}' is not a memo index`);
    return Number(text);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

export function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}
