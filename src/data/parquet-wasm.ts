import { createRequire } from "node:module";

/**
 * parquet-wasm's Node build, loaded with `require`: it is CommonJS, and an ES import of it first
 * lexes its 100 kB of glue code for its export names, about 25 ms of every command that reads a
 * parquet file, before its dataset read can start. Its types are the package's own.
 */
const wasm = createRequire(import.meta.url)("parquet-wasm") as typeof import("parquet-wasm");

export const { Compression, ParquetFile, Table, WriterPropertiesBuilder, readParquet, wasmMemory, writeParquet } = wasm;
export type ParquetFile = import("parquet-wasm").ParquetFile;
export type { RecordBatch } from "parquet-wasm";
