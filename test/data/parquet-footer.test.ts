import { Table, makeData, makeVector, Float64, tableToIPC } from "apache-arrow";
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from "parquet-wasm";
import { describe, expect, it } from "vitest";
import { utf8Vector } from "../../src/data/arrow-columns.js";
import { readParquetFooter } from "../../src/data/parquet-footer.js";
import { ParquetFormatError } from "../../src/data/thrift-compact.js";
import { claimedParquet } from "../helpers/parquet-claim.js";

const f64 = (values: Float64Array) => makeVector(makeData({ type: new Float64(), length: values.length, data: values }));

function parquet(n: number, rowGroupRows = 1 << 20): Uint8Array {
  const ids = Array.from({ length: n }, (_, i) => `id${i}`);
  const table = new Table({ id: utf8Vector(ids), prediction: f64(new Float64Array(n).fill(0.5)) });
  const props = new WriterPropertiesBuilder().setCompression(Compression.ZSTD).setMaxRowGroupSize(rowGroupRows).build();
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, "stream")), props);
}

describe("readParquetFooter", () => {
  it("reads the rows (over every row group), the leaf columns and the uncompressed size without decoding", () => {
    const footer = readParquetFooter(parquet(2500, 1000));
    expect(footer.rows).toBe(2500);
    expect(footer.columns).toBe(2);
    // 2500 float64 values alone take 20 000 bytes uncompressed
    expect(footer.uncompressed_bytes).toBeGreaterThan(20_000);
  });

  it("reads the claim of a tiny file of millions of equal rows", () => {
    const table = new Table({ prediction: f64(new Float64Array(3_000_000).fill(0.5)) });
    const bytes = writeParquet(WasmTable.fromIPCStream(tableToIPC(table, "stream")));
    expect(bytes.length).toBeLessThan(100_000);
    expect(readParquetFooter(bytes)).toMatchObject({ rows: 3_000_000, columns: 1 });
  });

  it("refuses a file without the magic, a footer length past the start, and a truncated footer", () => {
    const good = parquet(10);
    const bad = (bytes: Uint8Array) => () => readParquetFooter(bytes);
    expect(bad(new TextEncoder().encode("id,prediction\na,0.5\n"))).toThrow(ParquetFormatError);
    const long = good.slice();
    new DataView(long.buffer).setUint32(long.length - 8, long.length, true);
    expect(bad(long)).toThrow(/runs past the start/);
    const cut = new Uint8Array([...new TextEncoder().encode("PAR1"), 0x19, 0x2c, 0xff, 0xff, 4, 0, 0, 0, ...new TextEncoder().encode("PAR1")]);
    expect(bad(cut)).toThrow(ParquetFormatError);
  });

  it("never throws anything but ParquetFormatError on a damaged footer", () => {
    const good = parquet(50);
    const length = new DataView(good.buffer).getUint32(good.length - 8, true);
    const start = good.length - 8 - length;
    for (let at = start; at < good.length - 8; at++) {
      const damaged = good.slice();
      damaged[at] ^= 0xff;
      try {
        readParquetFooter(damaged);
      } catch (e) {
        expect(e).toBeInstanceOf(ParquetFormatError);
      }
    }
  });
});

describe("claimedParquet (the test helper)", () => {
  it("writes a footer the reader takes at its word", () => {
    expect(readParquetFooter(claimedParquet(50_000_000, 1234))).toMatchObject({ rows: 50_000_000, columns: 2, uncompressed_bytes: 1234 });
  });
});
