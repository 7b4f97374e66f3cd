import { gzipSync, brotliCompressSync } from "node:zlib";
import { tableFromIPC, Table, tableToIPC, makeData, makeVector, Float64 } from "apache-arrow";
import { Compression, Table as WasmTable, WriterPropertiesBuilder, readParquet, writeParquet } from "parquet-wasm";
import { describe, expect, it } from "vitest";
import { utf8Vector } from "../../src/data/arrow-columns.js";
import { MAX_SCHEMA_DEPTH, readParquetFooter } from "../../src/data/parquet-footer.js";
import { inflatedSize } from "../../src/data/parquet-inflated.js";
import { parquetPages } from "../../src/data/parquet-pages.js";
import { ParquetFormatError } from "../../src/data/thrift-compact.js";
import { GZIP, honestParquet, hostileParquet, plainDoubles, plainStrings } from "../helpers/hostile-parquet.js";

const walk = (bytes: Uint8Array) => parquetPages(bytes, readParquetFooter(bytes));

function written(n: number, compression: Compression): Uint8Array {
  const ids = Array.from({ length: n }, (_, i) => `id${i}`);
  const prediction = makeVector(makeData({ type: new Float64(), length: n, data: new Float64Array(n).fill(0.5) }));
  const table = new Table({ id: utf8Vector(ids), prediction });
  const props = new WriterPropertiesBuilder().setCompression(compression).setMaxRowGroupSize(1000).setDataPageSizeLimit(1024).setWriteBatchSize(300).build();
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, "stream")), props);
}

/** Every page's real size, with an unbounded budget. */
const sizes = (bytes: Uint8Array) => walk(bytes).pages.map((p) => inflatedSize(p, Number.MAX_SAFE_INTEGER));

describe("parquetPages and inflatedSize", () => {
  it("the hand-written file decodes as written (the test helper is a real parquet writer)", () => {
    const bytes = honestParquet(["a", "b", "c"], [0.1, 0.2, 0.3]);
    const table = tableFromIPC(readParquet(bytes).intoIPCStream());
    expect(Array.from(table.getChild("id")!)).toEqual(["a", "b", "c"]);
    expect(Array.from(table.getChild("prediction")!.toArray() as Float64Array)).toEqual([0.1, 0.2, 0.3]);
    const pages = walk(bytes);
    expect(pages).toMatchObject({ values: 3, rows_mismatch: null });
    expect(pages.pages.map((p) => p.body_bytes)).toEqual([plainStrings(["a", "b", "c"]).length, 24]);
  });

  for (const [name, compression] of [
    ["uncompressed", Compression.UNCOMPRESSED],
    ["SNAPPY", Compression.SNAPPY],
    ["GZIP", Compression.GZIP],
    ["BROTLI", Compression.BROTLI],
    ["ZSTD", Compression.ZSTD],
    ["LZ4_RAW", Compression.LZ4_RAW],
  ] as const) {
    it(`walks a written ${name} file's pages over its row groups, each page's size at least what it declares`, () => {
      const bytes = written(2500, compression);
      const pages = walk(bytes);
      expect(pages).toMatchObject({ values: 2500, rows_mismatch: null });
      expect(pages.pages.length).toBeGreaterThanOrEqual(2 * 3);
      const real = sizes(bytes);
      pages.pages.forEach((p, i) => expect(real[i]).toBeGreaterThanOrEqual(p.body_bytes));
      if (name !== "ZSTD") expect(real).toEqual(pages.pages.map((p) => p.body_bytes));
    });
  }

  it("refuses pages holding more rows than the footer says (50 million behind a footer of 1000)", () => {
    const zeros = plainDoubles(new Array(1_000_000).fill(0));
    const page = { body: gzipSync(zeros), uncompressed: zeros.length, values: 1_000_000 };
    const ids = plainStrings(["x"]);
    const bytes = hostileParquet({ codec: GZIP, id: [{ body: gzipSync(ids), uncompressed: ids.length, values: 1000 }], prediction: Array(50).fill(page), rows: 1000 });
    expect(bytes.length).toBeLessThan(3 * 1024 * 1024);
    expect(walk(bytes)).toMatchObject({ values: 50_000_000, rows_mismatch: "the pages of column 1 in its row group 0 hold 50000000 rows where its footer says 1000" });
  });

  it("counts a v2 page's rows", () => {
    const ids = plainStrings(["a", "b"]);
    const values = plainDoubles([0.1, 0.2]);
    const bytes = hostileParquet({
      codec: GZIP,
      id: [{ body: gzipSync(ids), uncompressed: ids.length, values: 2, v2: true }],
      prediction: [{ body: gzipSync(values), uncompressed: 16, values: 5, v2: true }],
    });
    expect(walk(bytes).rows_mismatch).toBe("the pages of column 1 in its row group 0 hold 5 rows where its footer says 2");
  });

  it("bounds a GZIP page by what it inflates to, not by what it declares", () => {
    const big = plainStrings(["a".repeat(1 << 20)]);
    const page = { codec: GZIP, at: 4, body: gzipSync(big), body_bytes: 100 };
    expect(inflatedSize(page, 1 << 19)).toBeNull();
    expect(() => inflatedSize(page, 1 << 21)).toThrow(`its GZIP page at byte 4 declares 100 bytes uncompressed and holds ${big.length}`);
    expect(inflatedSize({ ...page, body_bytes: big.length }, 1 << 21)).toBe(big.length);
    expect(inflatedSize({ ...page, codec: 4, body: brotliCompressSync(big), body_bytes: big.length }, 1 << 19)).toBeNull();
    expect(() => inflatedSize({ ...page, body: Buffer.from("not gzip") }, 1 << 21)).toThrow(/GZIP page at byte 4 does not inflate/);
  });

  it("bounds a ZSTD page by its blocks: RLE blocks regenerate what they state", () => {
    // A frame (no content size, 1 MiB window) of 40 RLE blocks of 100 000 bytes each: a few hundred bytes stored.
    const blocks = Array.from({ length: 40 }, (_, i) => {
      const header = (100_000 << 3) | (1 << 1) | (i === 39 ? 1 : 0);
      return [header & 0xff, (header >> 8) & 0xff, header >> 16, 0x61];
    }).flat();
    const body = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 10 << 3, ...blocks]);
    const page = { codec: 6, at: 4, body, body_bytes: 100 };
    expect(inflatedSize(page, 3_999_999)).toBeNull();
    expect(inflatedSize(page, 4_000_000)).toBe(4_000_000);
    expect(() => inflatedSize({ ...page, body: body.subarray(0, 20) }, 1e9)).toThrow("its ZSTD page at byte 4 ends inside a ZSTD frame");
  });

  it("refuses a Snappy body without its length, and codecs no decoder bounds", () => {
    const page = { codec: 1, at: 9, body: Uint8Array.from([0x80, 0x80]), body_bytes: 1 };
    expect(() => inflatedSize(page, 100)).toThrow("its SNAPPY page at byte 9 has no Snappy length");
    expect(() => inflatedSize({ ...page, codec: 5 }, 100)).toThrow("its codec 5 page at byte 9 is in a codec not read here");
  });

  it(`refuses a schema nested deeper than ${MAX_SCHEMA_DEPTH} levels, walking it without recursion (100 000 deep)`, () => {
    const ids = plainStrings(["a"]);
    const values = plainDoubles([0.5]);
    const file = (nesting: number) =>
      hostileParquet({ codec: GZIP, nesting, id: [{ body: gzipSync(ids), uncompressed: ids.length, values: 1 }], prediction: [{ body: gzipSync(values), uncompressed: 8, values: 1 }] });
    expect(readParquetFooter(file(MAX_SCHEMA_DEPTH - 1)).columns).toBe(2);
    expect(() => readParquetFooter(file(100_000))).toThrow(new ParquetFormatError(`its schema nests more than ${MAX_SCHEMA_DEPTH} levels deep`));
  });

  it("refuses a page past its chunk, chunks that do not match the columns, and damage anywhere with ParquetFormatError only", () => {
    const good = honestParquet(["a", "b"], [0.1, 0.2]);
    const pagesEnd = good.length - 8 - new DataView(good.buffer, good.byteOffset).getUint32(good.length - 8, true);
    for (let at = 4; at < pagesEnd; at++) {
      const damaged = good.slice();
      damaged[at] ^= 0xff;
      try {
        for (const p of walk(damaged).pages) inflatedSize(p, 1 << 20);
      } catch (e) {
        expect(e).toBeInstanceOf(ParquetFormatError);
      }
    }
    const ids = plainStrings(["a"]);
    const short = hostileParquet({ codec: 0, id: [{ body: ids.subarray(0, 3), uncompressed: ids.length, values: 1 }], prediction: [] });
    expect(walk(short).rows_mismatch).toBe("the pages of column 1 in its row group 0 hold 0 rows where its footer says 1");
  });
});
