import { CompactReader, ParquetFormatError, count, listOf, structOf, type Struct } from "./thrift-compact.js";

/**
 * What a parquet file's footer claims about its size and where its pages are, read without
 * decoding any data: a few hundred bytes of Thrift (compact protocol) at the end of the file. A
 * file whose few kilobytes decode to gigabytes (a "decompression bomb") shows it here, before the
 * decoder allocates; what its pages declare is checked against this by src/data/parquet-pages.ts.
 *
 * Read from FileMetaData (parquet.thrift): 2 `schema` (SchemaElement: 3 `repetition_type`, 5
 * `num_children`, absent on leaves), 3 `num_rows`, 4 `row_groups`; RowGroup: 1 `columns`, 2
 * `total_byte_size`, 3 `num_rows`; ColumnChunk: 1 `file_path`, 3 `meta_data` (ColumnMetaData: 4
 * `codec`, 6 `total_uncompressed_size`, 7 `total_compressed_size`, 9 `data_page_offset`, 11
 * `dictionary_page_offset`). Where the footer states a size twice (file and row groups, row group
 * and column chunks) the larger is taken, so a footer that lies in one place is still bounded by
 * the other. A schema nested deeper than MAX_SCHEMA_DEPTH is refused here: decoders recurse on it.
 */
export interface ParquetFooter {
  rows: number;
  columns: number;
  uncompressed_bytes: number;
  /** Per leaf column, in file order: whether it (or a group above it) repeats, so its values may outnumber its rows. */
  repeated: boolean[];
  row_groups: RowGroupPlace[];
}

export interface RowGroupPlace {
  rows: number;
  chunks: ColumnChunkPlace[];
}

/** A column chunk's pages: `length` bytes from `start` (its dictionary page's offset, else its first data page's), compressed with `codec`. */
export interface ColumnChunkPlace {
  codec: number;
  start: number;
  length: number;
}

/** Schema nesting deeper than any predictions file or dataset needs; decoders recurse on it. */
export const MAX_SCHEMA_DEPTH = 32;

const MAGIC = "PAR1";
const FOOTER = "its footer";

export function readParquetFooter(bytes: Uint8Array): ParquetFooter {
  if (bytes.length < 12 || ascii(bytes, 0) !== MAGIC || ascii(bytes, bytes.length - 4) !== MAGIC) {
    throw new ParquetFormatError("it does not start and end with the parquet magic PAR1");
  }
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.length - 8, true);
  if (length > bytes.length - 12) throw new ParquetFormatError(`its footer length ${length} runs past the start of the file`);
  const meta = new CompactReader(bytes.subarray(bytes.length - 8 - length, bytes.length - 8), FOOTER).struct();

  const repeated = leaves(listOf(meta.get(2), FOOTER).map((e) => structOf(e, FOOTER)));
  let groupRows = 0;
  let uncompressed = 0;
  const row_groups: RowGroupPlace[] = [];
  for (const group of listOf(meta.get(4), FOOTER).map((g) => structOf(g, FOOTER))) {
    const rows = count(group.get(3), FOOTER);
    groupRows += rows;
    let chunkBytes = 0;
    const chunks: ColumnChunkPlace[] = [];
    for (const chunk of listOf(group.get(1), FOOTER).map((c) => structOf(c, FOOTER))) {
      if (chunk.has(1)) throw new ParquetFormatError("its footer places a column chunk in another file");
      const chunkMeta = chunk.get(3);
      if (chunkMeta === undefined) throw new ParquetFormatError("its footer has a column chunk without metadata");
      const m = structOf(chunkMeta, FOOTER);
      chunkBytes += count(m.get(6), FOOTER);
      const start = m.has(11) ? count(m.get(11), FOOTER) : count(m.get(9), FOOTER);
      chunks.push({ codec: count(m.get(4), FOOTER), start, length: count(m.get(7), FOOTER) });
    }
    uncompressed += Math.max(count(group.get(2), FOOTER), chunkBytes);
    row_groups.push({ rows, chunks });
  }
  return { rows: Math.max(count(meta.get(3), FOOTER), groupRows), columns: repeated.length, uncompressed_bytes: uncompressed, repeated, row_groups };
}

/**
 * The schema's leaves in file order, each with whether it repeats, walked without recursion: the
 * elements are the tree in depth-first order, each group followed by its `num_children` children.
 */
function leaves(schema: Struct[]): boolean[] {
  const out: boolean[] = [];
  if (schema.length === 0) return out;
  const open: { left: number; repeated: boolean }[] = [{ left: count(schema[0].get(5), FOOTER), repeated: false }];
  for (let i = 1; i < schema.length; i++) {
    while (open.length > 0 && open[open.length - 1].left === 0) open.pop();
    const parent = open[open.length - 1];
    if (!parent) throw new ParquetFormatError("its schema lists more elements than its root holds");
    parent.left--;
    const repeated = parent.repeated || schema[i].get(3) === 2;
    if (!schema[i].has(5)) {
      out.push(repeated);
      continue;
    }
    open.push({ left: count(schema[i].get(5), FOOTER), repeated });
    if (open.length > MAX_SCHEMA_DEPTH) throw new ParquetFormatError(`its schema nests more than ${MAX_SCHEMA_DEPTH} levels deep`);
  }
  if (open.some((g) => g.left > 0)) throw new ParquetFormatError("its schema ends before its groups' children");
  return out;
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}
