import { readParquetFooter, type ParquetFooter } from "./parquet-footer.js";
import { BLOCK_MAX, inflatedSize } from "./parquet-inflated.js";
import { chunkPages, columnChunks, rowsMismatch, type ChunkPlace } from "./parquet-pages.js";
import { ParquetFormatError } from "./thrift-compact.js";

/**
 * A local parquet file (a dataset directory's split, a file given to `basecamp score`) checked to
 * be what it says before a decoder trusts it, so a hostile or damaged file is a clear error rather
 * than a hang or a process out of memory: its schema's depth (src/data/parquet-footer.ts), every
 * column's pages against the footer's rows, and every page against the size its header declares
 * (GZIP and Brotli inflated with that as their bound; a ZSTD bound may pass it by one block). A
 * local file has no size limit: it may declare gigabytes, but must hold what it declares. Throws
 * ParquetFormatError saying what is wrong. The file is read by byte ranges: its footer, then one
 * column chunk at a time.
 */
export async function checkParquetBlob(blob: Blob): Promise<void> {
  const footer = await checkParquetFooter(blob);
  for (const place of columnChunks(footer, blob.size)) {
    checkChunk(new Uint8Array(await blob.slice(place.start, place.start + place.length).arrayBuffer()), place);
  }
}

/** The file's footer checked (its magic, length and schema's depth): what a decoder reads to open it, before its pages. */
export async function checkParquetFooter(blob: Blob): Promise<ParquetFooter> {
  return readParquetFooter(await footerBytes(blob));
}

function checkChunk(bytes: Uint8Array, place: ChunkPlace): void {
  const chunk = chunkPages(bytes, place);
  const mismatch = rowsMismatch(place, chunk);
  if (mismatch) throw new ParquetFormatError(mismatch);
  for (const page of chunk.pages) {
    if (inflatedSize(page, page.body_bytes + BLOCK_MAX) === null) {
      throw new ParquetFormatError(`its page at byte ${page.at} inflates to more than the ${page.body_bytes} bytes it declares`);
    }
  }
}

/** The file's first four bytes and its footer with the eight after it: what `readParquetFooter` reads of a file. */
async function footerBytes(blob: Blob): Promise<Uint8Array> {
  if (blob.size < 12) throw new ParquetFormatError("it does not start and end with the parquet magic PAR1");
  const tail = new Uint8Array(await blob.slice(blob.size - 8).arrayBuffer());
  const length = new DataView(tail.buffer).getUint32(0, true);
  if (length > blob.size - 12) throw new ParquetFormatError(`its footer length ${length} runs past the start of the file`);
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  const footer = new Uint8Array(await blob.slice(blob.size - 8 - length).arrayBuffer());
  const bytes = new Uint8Array(4 + footer.length);
  bytes.set(head);
  bytes.set(footer, 4);
  return bytes;
}
