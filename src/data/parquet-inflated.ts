import { constants } from "node:buffer";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { ParquetPage } from "./parquet-pages.js";
import { ParquetFormatError } from "./thrift-compact.js";

/**
 * How many bytes a page's body really inflates to, found without handing it to a decoder that
 * would trust its header: GZIP and Brotli are inflated here with their output bounded by `budget`;
 * a Snappy body states its length in its first bytes (and decoders hold it to it); a ZSTD body's
 * blocks bound it (a raw or RLE block regenerates its stated size, a compressed one at most 128
 * KiB); LZ4_RAW is inflated by decoders into a buffer of the declared size, so it is the declared
 * size. null when it is more than `budget`. Throws ParquetFormatError, naming the page, for a body
 * that does not inflate, an exact size other than the header's, and a codec no decoder here
 * bounds (LZO, the deprecated Hadoop LZ4).
 */
export function inflatedSize(page: ParquetPage, budget: number): number | null {
  const name = CODECS[page.codec];
  const problem = (what: string) => new ParquetFormatError(`its ${name ?? `codec ${page.codec}`} page at byte ${page.at} ${what}`);
  let size: number;
  switch (name) {
    case "uncompressed":
      size = page.body.length;
      break;
    case "SNAPPY":
      size = snappyLength(page.body, problem);
      break;
    case "GZIP":
    case "BROTLI": {
      if (budget < 1) return page.body.length > 0 ? null : 0;
      try {
        size = (name === "GZIP" ? gunzipSync : brotliDecompressSync)(page.body, { maxOutputLength: Math.min(budget, constants.MAX_LENGTH) }).length;
      } catch (e) {
        if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return null;
        throw problem(`does not inflate: ${(e as Error).message}`);
      }
      break;
    }
    case "ZSTD": {
      // An upper bound, not the size: a body under it may still declare more than it holds, which decoders refuse.
      const bound = zstdBound(page.body, problem);
      return bound > budget ? null : Math.max(page.body_bytes, bound);
    }
    case "LZ4_RAW":
      size = page.body_bytes;
      break;
    default:
      throw problem("is in a codec not read here");
  }
  if (size > budget) return null;
  if (size !== page.body_bytes) throw problem(`declares ${page.body_bytes} bytes uncompressed and holds ${size}`);
  return size;
}

/** parquet.thrift CompressionCodec, by number; LZO (3) and LZ4 (5) are left out: decoders do not bound them. */
const CODECS: Record<number, string> = { 0: "uncompressed", 1: "SNAPPY", 2: "GZIP", 4: "BROTLI", 6: "ZSTD", 7: "LZ4_RAW" };

type Problem = (what: string) => ParquetFormatError;

/** A Snappy body's preamble: the uncompressed length as a little-endian base-128 varint. */
function snappyLength(body: Uint8Array, problem: Problem): number {
  let length = 0;
  for (let i = 0, scale = 1; i < 5 && i < body.length; i++, scale *= 128) {
    length += (body[i] & 0x7f) * scale;
    if ((body[i] & 0x80) === 0) return length;
  }
  throw problem("has no Snappy length");
}

const ZSTD_MAGIC = 0xfd2fb528;
/** RFC 8878's largest block: a ZSTD bound may exceed the true size by up to this much per frame. */
export const BLOCK_MAX = 128 * 1024;

/**
 * The most a ZSTD body (one or more frames, skippable ones included) can inflate to, from its frame
 * and block headers (RFC 8878): per frame, the sum of its blocks (a raw or RLE block regenerates
 * its stated size, a compressed one at most Block_Maximum_Size, the smaller of the window and 128
 * KiB); where the frame states its content size, no more than that and one block (decoders stop
 * there at the latest).
 */
function zstdBound(body: Uint8Array, problem: Problem): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const need = (at: number) => {
    if (at > body.length) throw problem("ends inside a ZSTD frame");
  };
  const uint = (at: number, size: number) => {
    let n = 0;
    for (let i = size - 1; i >= 0; i--) n = n * 256 + body[at + i];
    return n;
  };
  let bound = 0;
  for (let at = 0; at < body.length; ) {
    need(at + 4);
    const magic = view.getUint32(at, true);
    at += 4;
    if ((magic & 0xfffffff0) >>> 0 === 0x184d2a50) {
      need(at + 4);
      at += 4 + view.getUint32(at, true);
      need(at);
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw problem("is not ZSTD");
    need(at + 1);
    const descriptor = body[at++];
    const single = (descriptor >> 5) & 1;
    const contentBytes = [single, 2, 4, 8][descriptor >> 6];
    need(at + (single ? 0 : 1) + [0, 1, 2, 4][descriptor & 3] + contentBytes);
    let window = single ? Infinity : windowSize(body[at++]);
    at += [0, 1, 2, 4][descriptor & 3];
    const content = contentBytes === 0 ? Infinity : uint(at, contentBytes) + (contentBytes === 2 ? 256 : 0);
    at += contentBytes;
    if (single) window = content;
    const blockMax = Math.min(window, BLOCK_MAX);
    let blocks = 0;
    for (let last = 0; !last; ) {
      need(at + 3);
      const block = uint(at, 3);
      at += 3;
      last = block & 1;
      const type = (block >> 1) & 3;
      const size = block >>> 3;
      if (type === 3) throw problem("has a reserved ZSTD block type");
      blocks += type === 2 ? blockMax : size;
      at += type === 1 ? 1 : size;
      need(at);
    }
    at += descriptor & 4 ? 4 : 0;
    need(at);
    bound += Math.min(blocks, content + blockMax);
  }
  return bound;
}

/** A frame's Window_Descriptor: 2^(10 + exponent) plus eighths of it. */
function windowSize(descriptor: number): number {
  const base = 2 ** (10 + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}
