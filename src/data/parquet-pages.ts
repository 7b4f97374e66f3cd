import type { ParquetFooter } from "./parquet-footer.js";
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

/**
 * Walks every column chunk's pages. Throws ParquetFormatError naming the page or chunk for a
 * chunk outside the file, a page past its chunk, and a row group whose chunks do not match the
 * schema's columns.
 */
export function parquetPages(bytes: Uint8Array, footer: ParquetFooter): ParquetPages {
  const pages: ParquetPage[] = [];
  let uncompressed_bytes = 0;
  const columnValues = new Array<number>(footer.columns).fill(0);
  let rows_mismatch: string | null = null;
  const dataEnd = bytes.length - 8;
  footer.row_groups.forEach((group, g) => {
    if (group.chunks.length !== footer.columns) {
      throw new ParquetFormatError(`its row group ${g} has ${group.chunks.length} column chunks for ${footer.columns} columns`);
    }
    group.chunks.forEach((chunk, c) => {
      const end = chunk.start + chunk.length;
      if (chunk.start < 4 || end > dataEnd) throw new ParquetFormatError(`column ${c} of its row group ${g} lies outside the file`);
      let rows = 0;
      let values = 0;
      for (let at = chunk.start; at < end; ) {
        const reader = new CompactReader(bytes.subarray(at, end), `the page header at byte ${at}`);
        const header = reader.struct();
        const page = pageOf(header, reader, at + reader.position, chunk.codec, bytes.subarray(0, end));
        if (page) {
          pages.push(page.page);
          uncompressed_bytes += page.uncompressed;
          rows += page.rows;
          values += page.values;
        }
        at += reader.position + count(header.get(3), reader.what);
      }
      const repeated = footer.repeated[c];
      if (rows_mismatch === null && ((!repeated && rows !== group.rows) || (repeated && values < group.rows))) {
        rows_mismatch = `the pages of column ${c} in its row group ${g} hold ${repeated ? values : rows} rows where its footer says ${group.rows}`;
      }
      columnValues[c] += values;
    });
  });
  return { uncompressed_bytes, values: Math.max(0, ...columnValues), pages, rows_mismatch };
}

/**
 * A page's body and what it declares; null for a page decoders skip. `rows` are its data rows
 * where the header says (v2) and its values otherwise (v1 pages count rows only as values).
 */
function pageOf(
  header: Struct,
  reader: CompactReader,
  bodyAt: number,
  codec: number,
  chunkBytes: Uint8Array,
): { page: ParquetPage; uncompressed: number; rows: number; values: number } | null {
  const what = reader.what;
  const type = header.get(1);
  const uncompressed = count(header.get(2), what);
  const compressed = count(header.get(3), what);
  if (bodyAt + compressed > chunkBytes.length) throw reader.error(`declares ${compressed} bytes, past the end of its column chunk`);
  const at = bodyAt - reader.position;
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
