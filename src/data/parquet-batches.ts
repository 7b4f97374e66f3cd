import { Type, makeVector, tableFromIPC, type Vector } from "apache-arrow";
import { ParquetFile, type RecordBatch as WasmRecordBatch } from "./parquet-wasm.js";
import { readNumbers, readStrings } from "./arrow-columns.js";
import { FfiColumnReader, type FfiColumn } from "./arrow-ffi.js";
import { parquetBlob } from "./parquet-blob.js";
import { checkParquetBlob } from "./parquet-check.js";
import { INDEX_COLUMN } from "./parquet.js";
import { labelColumnIn, type BatchSource, type RowBatch } from "./row-batch.js";

/**
 * A parquet predictions file read as row batches (`BatchSource`): the file is read by byte ranges
 * (a Blob on it: parquetBlob, which reads a small file whole), row group by row group, decoding
 * only `id`, `exped` (or `era`) and the asked-for columns, in batches of BATCH rows, so neither a
 * large file nor its decoded columns are ever whole in memory. The
 * usual column shapes are read from the wasm memory in place (`FfiColumnReader`), the rest through
 * an Arrow IPC stream. The file is checked to hold what it says first (src/data/parquet-check.ts),
 * a column chunk at a time.
 * Ids come as their Utf8 bytes; `exped` as runs, a string per run (from the dictionary when the
 * column is dictionary-encoded).
 */
const BATCH = 1 << 16;

export function parquetBatches(path: string): BatchSource {
  return (columns) => readBatches(path, columns);
}

async function* readBatches(path: string, names: string[]): AsyncGenerator<RowBatch> {
  const blob = await parquetBlob(path);
  await checkParquetBlob(blob).catch((e: Error) => {
    throw new Error(`${path}: ${e.message}`);
  });
  const file = await ParquetFile.fromFile(blob);
  try {
    const schema = tableFromIPC(file.schema().intoIPCStream()).schema;
    const label = labelColumnIn(schema.fields.map((f) => f.name));
    const wanted = [...new Set([INDEX_COLUMN, label, ...names])];
    for (const name of wanted) if (!schema.fields.some((f) => f.name === name)) throw new Error(`missing column '${name}'`);
    const reader = (await file.stream({ columns: wanted, batchSize: BATCH })).getReader();
    const columns = new FfiColumnReader(wanted);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const batch = value as WasmRecordBatch;
      const ffi = columns.read(batch);
      const read = ffi && ffiBatch(ffi, label, names);
      if (read) {
        batch.free();
        yield read;
        continue;
      }
      const table = tableFromIPC(batch.intoIPCStream());
      const child = (name: string) => table.getChild(name)!;
      yield { length: table.numRows, ...idBytes(child(INDEX_COLUMN)), ...expedRuns(label, child(label)), columns: names.map((name) => readNumbers(name, child(name))) };
    }
  } finally {
    file.free();
  }
}

/** A batch read through the C data interface (`FfiColumnReader`), or null when its columns are not text ids and labels and numbers. */
function ffiBatch({ length, columns }: { length: number; columns: Map<string, FfiColumn> }, label: string, names: string[]): RowBatch | null {
  const ids = columns.get(INDEX_COLUMN)!;
  const exped = columns.get(label)!;
  const numbers = names.map((name) => columns.get(name)!);
  if (ids.kind !== "text" || exped.kind !== "text" || numbers.some((c) => c.kind !== "numbers")) return null;
  const runLabels: string[] = [];
  const runStarts: number[] = [];
  utf8Runs(exped.bytes, exped.offsets, length, 0, runLabels, runStarts);
  return { length, idBytes: ids.bytes, idOffsets: ids.offsets, runLabels, runStarts, columns: numbers.map((c) => (c as Extract<FfiColumn, { kind: "numbers" }>).values) };
}

/** A Utf8 column's bytes and offsets as they are; any other id column through its strings. */
function idBytes(vector: Vector): Pick<RowBatch, "idBytes" | "idOffsets"> {
  const only = vector.data.length === 1 ? vector.data[0] : null;
  if (only && only.type.typeId === Type.Utf8 && only.nullCount === 0) {
    return { idBytes: only.values as Uint8Array, idOffsets: only.valueOffsets as Int32Array };
  }
  const ids = readStrings(INDEX_COLUMN, vector).map((id) => Buffer.from(id, "utf8"));
  const idOffsets = new Int32Array(ids.length + 1);
  ids.forEach((id, i) => (idOffsets[i + 1] = idOffsets[i] + id.length));
  return { idBytes: Buffer.concat(ids), idOffsets };
}

/** The runs of equal labels: compared as bytes (Utf8) or dictionary keys, a string made once per run. */
function expedRuns(column: string, vector: Vector): Pick<RowBatch, "runLabels" | "runStarts"> {
  const runLabels: string[] = [];
  const runStarts: number[] = [];
  let row = 0;
  for (const chunk of vector.data) {
    if (chunk.nullCount > 0) throw new Error(`Column '${column}' has a null`);
    if (chunk.type.typeId === Type.Utf8) utf8Runs(chunk.values as Uint8Array, chunk.valueOffsets as Int32Array, chunk.length, row, runLabels, runStarts);
    else if (chunk.type.typeId === Type.Dictionary) {
      const labels = readStrings(column, makeVector(chunk.dictionary!));
      const keys = chunk.values as ArrayLike<number>;
      for (let i = 0; i < chunk.length; i++) {
        if (i === 0 || keys[i] !== keys[i - 1]) {
          runLabels.push(labels[Number(keys[i])]);
          runStarts.push(row + i);
        }
      }
    } else readStrings(column, makeVector(chunk)).forEach((label, i) => {
      if (i === 0 || label !== runLabels[runLabels.length - 1]) {
        runLabels.push(label);
        runStarts.push(row + i);
      }
    });
    row += chunk.length;
  }
  return { runLabels, runStarts };
}

function utf8Runs(bytes: Uint8Array, offsets: Int32Array, length: number, row: number, runLabels: string[], runStarts: number[]): void {
  let runStart = -1;
  for (let i = 0; i < length; i++) {
    if (runStart >= 0 && sameValue(bytes, offsets[runStart], offsets[runStart + 1], offsets[i], offsets[i + 1])) continue;
    runStart = i;
    runLabels.push(Buffer.from(bytes.buffer, bytes.byteOffset + offsets[i], offsets[i + 1] - offsets[i]).toString("utf8"));
    runStarts.push(row + i);
  }
}

function sameValue(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let k = 0; k < aEnd - a; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

