import type { ColumnChunkPlace, ParquetFooter } from "./parquet-footer.js";
import { CompactReader, ParquetFormatError, count, structOf, type Struct } from "./thrift-compact.js";

/**
 * What a parquet file's pages declare, read from their headers (Thrift compact PageHeader: 1
 * `type`, 2 `uncompressed_page_size`, 3 `compressed_page_size`, 5 `data_page_header` (1
 * `num_values`), 8 `data_page_header_v2` (1 `num_values`, 3 `num_rows`, 5/6 the byte lengths of
 * its uncompressed levels, 7 `is_compressed`)) without inflating any: the walk a decoder makes,
 * from each column chunk's first page to its end, so a file whose footer understates what its
 * pages hold is caught before they are decoded. Pages of other types (index pages) are skipped,
 * as decoders skip them.
 */
export interface ParquetPages {
  /** The uncompressed sizes the pages declare, summed over all of them. */
  uncompressed_bytes: number;
  /** The most values any one column's pages hold: its rows, or more for a repeated column. */
  values: number;
  pages: ParquetPage[];
  /**
   * The first column whose pages hold other rows than the footer says (for a repeated column:
   * fewer values than rows, or v2 pages' rows other than the footer's), said as a reason; null
   * when none does. Left to the caller, so a file whose pages hold more than a limit allows is
   * refused for that first.
   */
  rows_mismatch: string | null;
}

export interface ParquetPage {
  /** Where its header starts in the file, to name it. */
  at: number;
  /** The column chunk's compression codec (parquet.thrift CompressionCodec), 0 for a page stored uncompressed. */
  codec: number;
  /** The bytes the codec inflates: a v2 data page's after its levels. */
  body: Uint8Array;
  /** What the header says `body` inflates to. */
  body_bytes: number;
}

const DATA_PAGE = 0;
const DICTIONARY_PAGE = 2;
const DATA_PAGE_V2 = 3;

/** Walks every column chunk's pages in `bytes`, the whole file. */
export function parquetPages(bytes: Uint8Array, footer: ParquetFooter): ParquetPages {
  const pages: ParquetPage[] = [];
  let uncompressed_bytes = 0;
  const columnValues = new Array<number>(footer.columns).fill(0);
  let rows_mismatch: string | null = null;
  for (const place of columnChunks(footer, bytes.length)) {
    const chunk = chunkPages(bytes.subarray(place.start, place.start + place.length), place);
    pages.push(...chunk.pages);
    uncompressed_bytes += chunk.uncompressed_bytes;
    columnValues[place.column] += chunk.values;
    rows_mismatch ??= rowsMismatch(place, chunk);
  }
  return { uncompressed_bytes, values: Math.max(0, ...columnValues), pages, rows_mismatch };
}

/** A column chunk where the footer puts it, with what the footer says of its rows. */
export interface ChunkPlace extends ColumnChunkPlace {
  group: number;
  column: number;
  rows: number;
  repeated: boolean;
}

/**
 * The footer's column chunks in file order. Throws ParquetFormatError for a row group whose chunks
 * do not match the schema's columns and a chunk outside a file of `fileLength` bytes.
 */
export function* columnChunks(footer: ParquetFooter, fileLength: number): Generator<ChunkPlace> {
  for (const [group, { rows, chunks }] of footer.row_groups.entries()) {
    if (chunks.length !== footer.columns) throw new ParquetFormatError(`its row group ${group} has ${chunks.length} column chunks for ${footer.columns} columns`);
    for (const [column, chunk] of chunks.entries()) {
      if (chunk.start < 4 || chunk.start + chunk.length > fileLength - 8) throw new ParquetFormatError(`column ${column} of its row group ${group} lies outside the file`);
      yield { ...chunk, group, column, rows, repeated: footer.repeated[column] };
    }
  }
}

export interface ChunkPages {
  pages: ParquetPage[];
  uncompressed_bytes: number;
  rows: number;
  values: number;
}

/** The pages of one column chunk, `bytes` being the chunk's. Throws ParquetFormatError naming a page that does not decode or runs past the chunk. */
export function chunkPages(bytes: Uint8Array, place: ChunkPlace): ChunkPages {
  const out: ChunkPages = { pages: [], uncompressed_bytes: 0, rows: 0, values: 0 };
  for (let at = 0; at < bytes.length; ) {
    const reader = new CompactReader(bytes.subarray(at), `the page header at byte ${place.start + at}`);
    const header = reader.struct();
    const page = pageOf(header, reader, at + reader.position, place, bytes);
    if (page) {
      out.pages.push(page.page);
      out.uncompressed_bytes += page.uncompressed;
      out.rows += page.rows;
      out.values += page.values;
    }
    at += reader.position + count(header.get(3), reader.what);
  }
  return out;
}

/** Where a chunk's pages hold other rows than the footer says (a repeated column: fewer values, or v2 pages' rows other), the reason; else null. */
export function rowsMismatch(place: ChunkPlace, chunk: ChunkPages): string | null {
  const held = place.repeated ? chunk.values : chunk.rows;
  if (place.repeated ? held >= place.rows : held === place.rows) return null;
  return `the pages of column ${place.column} in its row group ${place.group} hold ${held} rows where its footer says ${place.rows}`;
}

/**
 * A page's body and what it declares; null for a page decoders skip. `rows` are its data rows
 * where the header says (v2) and its values otherwise (v1 pages count rows only as values).
 */
function pageOf(
  header: Struct,
  reader: CompactReader,
  bodyAt: number,
  place: ChunkPlace,
  chunkBytes: Uint8Array,
): { page: ParquetPage; uncompressed: number; rows: number; values: number } | null {
  const what = reader.what;
  const type = header.get(1);
  const uncompressed = count(header.get(2), what);
  const compressed = count(header.get(3), what);
  if (bodyAt + compressed > chunkBytes.length) throw reader.error(`declares ${compressed} bytes, past the end of its column chunk`);
  const at = place.start + bodyAt - reader.position;
  const codec = place.codec;
  const whole = chunkBytes.subarray(bodyAt, bodyAt + compressed);
  if (type === DICTIONARY_PAGE) return { page: { at, codec, body: whole, body_bytes: uncompressed }, uncompressed, rows: 0, values: 0 };
  if (type === DATA_PAGE) {
    const values = count(field(header, 5, reader).get(1), what);
    return { page: { at, codec, body: whole, body_bytes: uncompressed }, uncompressed, rows: values, values };
  }
  if (type !== DATA_PAGE_V2) return null;
  const v2 = field(header, 8, reader);
  const levels = count(v2.get(5), what) + count(v2.get(6), what);
  if (levels > compressed || levels > uncompressed) throw reader.error(`declares ${levels} bytes of levels, more than the page holds`);
  const page = { at, codec: v2.get(7) === false ? 0 : codec, body: whole.subarray(levels), body_bytes: uncompressed - levels };
  return { page, uncompressed, rows: count(v2.get(3), what), values: count(v2.get(1), what) };
}

function field(header: Struct, id: number, reader: CompactReader): Struct {
  const v = header.get(id);
  if (v === undefined) throw reader.error(`lacks its field ${id}`);
  return structOf(v, reader.what);
}
