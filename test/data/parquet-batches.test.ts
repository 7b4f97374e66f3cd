import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Dictionary, Float32, Float64, Int32, Int64, Uint8, Utf8, Table, tableToIPC, vectorFromArray, type Vector } from "apache-arrow";
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from "parquet-wasm";
import { describe, expect, it, vi } from "vitest";
import { FfiColumnReader } from "../../src/data/arrow-ffi.js";
import { parquetBatches } from "../../src/data/parquet-batches.js";
import { readFrameParquet } from "../../src/data/parquet.js";
import type { RowBatch } from "../../src/data/row-batch.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-parquet-batches-"));
const N = 20_000;

/** A parquet file of `vectors` in row groups of `group` rows. */
function parquetFile(name: string, vectors: Record<string, Vector>, group = 6_000): string {
  const wasm = WasmTable.fromIPCStream(tableToIPC(new Table(vectors), "stream"));
  const path = join(dir, name);
  writeFileSync(path, writeParquet(wasm, new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setMaxRowGroupSize(group).build()));
  return path;
}

/** Every row of the file as parquetBatches gives it: [id, exped, ...numbers]. */
async function batchRows(path: string, columns: string[]): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const b of parquetBatches(path)(columns)) rows.push(...rowsOf(b));
  return rows;
}

function rowsOf(b: RowBatch): unknown[][] {
  let run = 0;
  return Array.from({ length: b.length }, (_, i) => {
    while (run + 1 < b.runStarts.length && b.runStarts[run + 1] <= i) run++;
    return [Buffer.from(b.idBytes.subarray(b.idOffsets[i], b.idOffsets[i + 1])).toString("utf8"), b.runLabels[run], ...b.columns.map((c) => c[i])];
  });
}

/** The same rows through the whole-file reader (arrow IPC), the reference. */
function frameRows(path: string, columns: string[]): unknown[][] {
  const frame = readFrameParquet(readFileSync(path));
  return frame.ids.map((id, i) => [id, frame.exped[i], ...columns.map((c) => frame.columns[c][i])]);
}

const ids = Array.from({ length: N }, (_, i) => (i * 2654435761 % 2 ** 32).toString(16).padStart(8, "0") + (i === 5 ? "é" : ""));
const labels = Array.from({ length: N }, (_, i) => `e${Math.floor(i / 2_500)}`);
const nullable = <T>(values: T[]) => values.map((v, i) => (i % 7 === 3 ? null : v));

describe("parquetBatches", () => {
  it("reads text ids and labels, float64/float32 with nulls and integer columns as the whole-file reader does, across row groups", async () => {
    const path = parquetFile("shapes.parquet", {
      id: vectorFromArray(ids, new Utf8()),
      exped: vectorFromArray(labels, new Utf8()),
      f64: vectorFromArray(nullable(Array.from({ length: N }, (_, i) => Math.sin(i))), new Float64()),
      f32: vectorFromArray(nullable(Array.from({ length: N }, (_, i) => i / 3)), new Float32()),
      i32: vectorFromArray(Array.from({ length: N }, (_, i) => i - 100), new Int32()),
      i64: vectorFromArray(Array.from({ length: N }, (_, i) => BigInt(i * 1000)), new Int64()),
      u8: vectorFromArray(Array.from({ length: N }, (_, i) => i % 256), new Uint8()),
    });
    const columns = ["f64", "f32", "i32", "i64", "u8"];
    const ffi = vi.spyOn(FfiColumnReader.prototype, "read");
    expect(await batchRows(path, columns)).toStrictEqual(frameRows(path, columns));
    expect(ffi).toHaveBeenCalled();
    expect(ffi.mock.results.every((r) => r.value !== null)).toBe(true); // read in place, not through IPC
    ffi.mockRestore();
  });

  it("reads dictionary-encoded labels and integer ids through the IPC path, with the same rows", async () => {
    const path = parquetFile("dictionary.parquet", {
      id: vectorFromArray(Array.from({ length: N }, (_, i) => i * 3), new Int32()),
      exped: vectorFromArray(labels, new Dictionary(new Utf8(), new Int32())),
      x: vectorFromArray(Array.from({ length: N }, (_, i) => i / 7), new Float64()),
    });
    const rows = await batchRows(path, ["x"]);
    expect(rows).toHaveLength(N);
    expect(rows[N - 1]).toStrictEqual([String((N - 1) * 3), labels[N - 1], (N - 1) / 7]);
    expect(new Set(rows.map((r) => r[1]))).toStrictEqual(new Set(labels));
  });

  it("refuses a text column asked for as numbers, and a missing column", async () => {
    const path = parquetFile("text.parquet", { id: vectorFromArray(ids.slice(0, 10), new Utf8()), exped: vectorFromArray(labels.slice(0, 10), new Utf8()), note: vectorFromArray(ids.slice(0, 10), new Utf8()) });
    await expect(batchRows(path, ["note"])).rejects.toThrow("Column 'note' has type Utf8, expected an int or float column");
    await expect(batchRows(path, ["nope"])).rejects.toThrow("missing column 'nope'");
  });
});
