import { Type, tableFromIPC, type Table, type Vector } from "apache-arrow";
import { readParquet } from "./parquet-wasm.js";
import { refuse } from "../domain/errors.js";
import { readNumbers, readStrings } from "./arrow-columns.js";
import { readParquetFooter } from "./parquet-footer.js";
import { inflatedSize } from "./parquet-inflated.js";
import { parquetPages } from "./parquet-pages.js";
import { ParquetFormatError } from "./thrift-compact.js";

/** The bounds a parquet predictions file is checked against before decoding (the file's bytes are checked by its caller). */
interface ParquetLimits {
  max_rows: number;
  max_columns: number;
  max_uncompressed_bytes: number;
}

/**
 * The `id` and `prediction` columns of a parquet predictions file. `id` is a column, or the pandas
 * index (pyarrow stores an index as a column: named `id` when the index is, `__index_level_0__`
 * when unnamed); `prediction` may be an int or float of any width. Rows are counted from 1. The
 * footer's rows, columns and uncompressed size are checked against `limits` before decoding.
 */
export function readPredictionsParquet(bytes: Uint8Array, limits: ParquetLimits): { ids: string[]; values: Float64Array } {
  requireWithin(bytes, limits);
  const table = readTable(bytes);
  if (table.numRows === 0) throw refuse("predictions_file_empty");
  const id = table.getChild("id") ?? indexColumn(table);
  if (!id) throw refuse("predictions_column_missing", { column: "id" });
  const prediction = table.getChild("prediction");
  if (!prediction) throw refuse("predictions_column_missing", { column: "prediction" });
  if (prediction.type.typeId !== Type.Int && prediction.type.typeId !== Type.Float) {
    throw refuse("predictions_column_type", { column: "prediction", type: String(prediction.type) });
  }
  refuseNulls("id", id);
  refuseNulls("prediction", prediction);
  return { ids: readStrings("id", id), values: readNumbers("prediction", prediction) };
}

/**
 * The rows, columns and uncompressed bytes the footer claims; then what the pages' headers declare
 * (rows against the footer's, uncompressed sizes summed); then what the pages really inflate to,
 * each inflated (or its size read) with what is left of `max_uncompressed_bytes` as its bound. Over
 * a limit: 413 naming it; a file that is not what it says: 400 naming what is wrong. So the
 * decoder is only ever handed pages whose total it cannot exceed (src/data/parquet-inflated.ts).
 */
function requireWithin(bytes: Uint8Array, limits: ParquetLimits): void {
  const over = (code: "predictions_too_many_rows" | "predictions_too_many_columns" | "predictions_too_much_data", params: Record<string, number | string>, limit: number) =>
    refuse(code, { ...params, limit }, { extra: { limit } });
  try {
    const footer = readParquetFooter(bytes);
    if (footer.rows > limits.max_rows) throw over("predictions_too_many_rows", { rows: footer.rows }, limits.max_rows);
    if (footer.columns > limits.max_columns) throw over("predictions_too_many_columns", { columns: footer.columns }, limits.max_columns);
    const limit = limits.max_uncompressed_bytes;
    if (footer.uncompressed_bytes > limit) throw over("predictions_too_much_data", { size: footer.uncompressed_bytes }, limit);
    const pages = parquetPages(bytes, footer);
    if (pages.values > limits.max_rows) throw over("predictions_too_many_rows", { rows: pages.values }, limits.max_rows);
    if (pages.rows_mismatch) throw new ParquetFormatError(pages.rows_mismatch);
    if (pages.uncompressed_bytes > limit) throw over("predictions_too_much_data", { size: pages.uncompressed_bytes }, limit);
    let held = 0;
    for (const page of pages.pages) {
      const size = inflatedSize(page, limit - held);
      if (size === null) throw over("predictions_too_much_data", { size: `more than ${limit}` }, limit);
      held += size;
    }
  } catch (e) {
    if (e instanceof ParquetFormatError) throw refuse("predictions_file_unreadable", { format: "parquet", reason: e.message });
    throw e;
  }
}

function readTable(bytes: Uint8Array): Table {
  try {
    return tableFromIPC(readParquet(bytes, { batchSize: 1 << 20 }).intoIPCStream());
  } catch (e) {
    throw refuse("predictions_file_unreadable", { format: "parquet", reason: e instanceof Error ? e.message : String(e) });
  }
}

/** The single named index column recorded in the pandas metadata, if there is one. */
function indexColumn(table: Table): Vector | null {
  const raw = table.schema.metadata.get("pandas");
  if (!raw) return null;
  try {
    const index = (JSON.parse(raw) as { index_columns?: unknown }).index_columns;
    return Array.isArray(index) && index.length === 1 && typeof index[0] === "string" ? table.getChild(index[0]) : null;
  } catch {
    return null;
  }
}

function refuseNulls(column: string, vector: Vector): void {
  if (vector.nullCount === 0) return;
  let row = 1;
  for (const chunk of vector.data) {
    for (let i = 0; i < chunk.length; i++, row++) {
      if (!chunk.getValid(i)) throw refuse("predictions_value_malformed", { row, column, problem: "the value is empty" });
    }
  }
}
