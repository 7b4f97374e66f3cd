import { readFileSync } from "node:fs";
import { tableFromIPC, type DataType, type Table } from "apache-arrow";
import { readParquet, readSchema } from "parquet-wasm";
import { checkParquetBytes } from "./parquet-check.js";

/**
 * A parquet file opened for reading some of its columns: the fields come from the footer alone,
 * and `read` decodes only the columns it is asked for, each in one chunk (large batches). The file
 * is checked to hold what it says before anything is decoded (src/data/parquet-check.ts).
 */
export class ParquetFile {
  /** Column name → arrow type, in file order. */
  readonly fields: Map<string, DataType>;
  /** The column holding the row key `id`. */
  readonly index: string;

  private constructor(
    readonly path: string,
    private readonly bytes: Uint8Array,
  ) {
    checkParquetBytes(bytes);
    const schema = tableFromIPC(readSchema(bytes).intoIPCStream()).schema;
    this.fields = new Map(schema.fields.map((f) => [f.name, f.type]));
    this.index = indexColumn(schema.metadata.get("pandas"), this.fields);
  }

  /** Opens `path`; a missing or unreadable file is an error naming it. */
  static open(path: string): ParquetFile {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      throw new Error(`cannot read ${path}: ${(e as Error).message}`);
    }
    return inFile(path, () => new ParquetFile(path, bytes));
  }

  /** The named columns only (each must exist). */
  read(columns: string[]): Table {
    for (const name of columns) if (!this.fields.has(name)) throw new Error(`${this.path}: no column '${name}'`);
    return inFile(this.path, () => tableFromIPC(readParquet(this.bytes, { columns, batchSize: 1 << 20 }).intoIPCStream()));
  }
}

/**
 * The row-key column. pandas stores a named index as a column of that name (`id`) and an unnamed
 * one as `__index_level_0__`, and lists it in its metadata's `index_columns`; a RangeIndex is
 * listed as an object and stored nowhere, in which case the key must be a column named `id`.
 */
function indexColumn(pandasJson: string | undefined, fields: Map<string, DataType>): string {
  const stored = pandasJson === undefined ? [] : storedIndexColumns(pandasJson);
  if (stored.length > 1) throw new Error(`has a multi-column index (${stored.join(", ")}); expected one index, id`);
  const index = stored[0] ?? "id";
  if (!fields.has(index)) {
    throw new Error(stored.length ? `pandas metadata names index column '${index}', which the file lacks` : "no id index and no 'id' column");
  }
  return index;
}

function storedIndexColumns(pandasJson: string): string[] {
  let metadata: unknown;
  try {
    metadata = JSON.parse(pandasJson);
  } catch (e) {
    throw new Error(`its pandas metadata is not JSON: ${(e as Error).message}`);
  }
  const listed = (metadata as { index_columns?: unknown }).index_columns;
  return Array.isArray(listed) ? listed.filter((c): c is string => typeof c === "string") : [];
}

/** Runs `fn`, prefixing any error's message with `path` (once). */
export function inFile<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const message = (e as Error).message;
    throw new Error(message.startsWith(path) ? message : `${path}: ${message}`);
  }
}
