import { Schema, Table, tableFromIPC, tableToIPC, type Vector } from "apache-arrow";
import { Compression, Table as WasmTable, WriterPropertiesBuilder, readParquet, writeParquet } from "./parquet-wasm.js";
import { numericVector, readNumbers, readStrings, utf8Vector } from "./arrow-columns.js";
import type { Frame } from "../domain/frame.js";
import { numpyType, pandasMetadata } from "./pandas-metadata.js";

/**
 * Frames as parquet files, the format of every dataset split and benchmark file the service
 * publishes: `id` (Utf8, the pandas index), `exped` (Utf8), then each numeric column in its own
 * type (int8 stays int8), snappy-compressed like pyarrow's default.
 */
export const INDEX_COLUMN = "id";
export const EXPED_COLUMN = "exped";

/** `expedColumn` names the label column: `era` writes a file in the older files' layout. */
export function writeFrameParquet(frame: Frame, expedColumn = EXPED_COLUMN): Uint8Array {
  const n = frame.ids.length;
  if (frame.exped.length !== n) throw new Error(`Frame has ${n} ids but ${frame.exped.length} exped labels`);
  const names = Object.keys(frame.columns);
  const vectors: Record<string, Vector> = { [INDEX_COLUMN]: utf8Vector(frame.ids), [expedColumn]: utf8Vector(frame.exped) };
  for (const name of names) {
    if (name === INDEX_COLUMN || name === expedColumn) throw new Error(`Frame column '${name}' clashes with a reserved column`);
    const col = frame.columns[name];
    if (col.length !== n) throw new Error(`Frame column '${name}' has ${col.length} rows, expected ${n}`);
    vectors[name] = numericVector(col);
  }
  const plain = new Table(vectors);
  const metadata = new Map([["pandas", JSON.stringify(pandasMetadata(INDEX_COLUMN, [expedColumn], names.map((n) => [n, numpyType(frame.columns[n])])))]]);
  const table = new Table(new Schema(plain.schema.fields, metadata), plain.batches);
  const wasmTable = WasmTable.fromIPCStream(tableToIPC(table, "stream"));
  return writeParquet(wasmTable, new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).build());
}

/** Reads any parquet file with a string `id`, a string `exped` and int/float columns of any width. */
export function readFrameParquet(bytes: Uint8Array): Frame {
  const table = tableFromIPC(readParquet(bytes, { batchSize: 1 << 20 }).intoIPCStream());
  const child = (name: string): Vector => {
    const v = table.getChild(name);
    if (!v) throw new Error(`Parquet file has no '${name}' column`);
    return v;
  };
  const ids = readStrings(INDEX_COLUMN, child(INDEX_COLUMN));
  const exped = readStrings(EXPED_COLUMN, child(EXPED_COLUMN));
  const columns: Record<string, Float64Array> = {};
  for (const field of table.schema.fields) {
    if (field.name === INDEX_COLUMN || field.name === EXPED_COLUMN) continue;
    columns[field.name] = readNumbers(field.name, child(field.name));
  }
  return { ids, exped, columns };
}
