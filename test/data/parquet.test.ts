import { Bool, Float16, Float32, Float64, Int8, Int64, Schema, Table, makeData, makeVector, tableFromIPC, tableToIPC, type Vector } from "apache-arrow";
import fc from "fast-check";
import { Table as WasmTable, readParquet, writeParquet } from "parquet-wasm";
import { describe, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { readFrameParquet, writeFrameParquet } from "../../src/data/parquet.js";
import { utf8Vector } from "../../src/data/arrow-columns.js";

const frameArb: fc.Arbitrary<Frame> = fc
  .record({
    n: fc.nat({ max: 40 }),
    names: fc.uniqueArray(fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }), { maxLength: 5 }),
  })
  .chain(({ n, names }) =>
    fc.record({
      ids: fc.array(fc.string({ unit: "grapheme", maxLength: 20 }), { minLength: n, maxLength: n }),
      exped: fc.array(fc.string({ unit: "grapheme-ascii", maxLength: 12 }), { minLength: n, maxLength: n }),
      columns: fc.tuple(
        ...names
          .filter((name) => name !== "id" && name !== "exped")
          .map((name) => fc.tuple(fc.constant(name), fc.float64Array({ minLength: n, maxLength: n }))),
      ),
    }),
  )
  .map(({ ids, exped, columns }) => ({ ids, exped, columns: Object.fromEntries(columns) }));

function expectSameFrame(back: Frame, frame: Frame): void {
  expect(back.ids).toEqual(frame.ids);
  expect(back.exped).toEqual(frame.exped);
  expect(Object.keys(back.columns)).toEqual(Object.keys(frame.columns));
  for (const [name, col] of Object.entries(frame.columns)) {
    // toEqual tells NaN from NaN as equal and -0 from 0 as different: exactly the round-trip contract.
    expect(Array.from(back.columns[name])).toEqual(Array.from(col));
  }
}

/** A parquet file written straight from arrow vectors, for shapes the writer never produces. */
function parquetOf(vectors: Record<string, Vector>): Uint8Array {
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table(vectors), "stream")));
}

function schemaOf(bytes: Uint8Array): Schema {
  return tableFromIPC(readParquet(bytes).intoIPCStream()).schema;
}

describe("writeFrameParquet / readFrameParquet", () => {
  it("round-trips any frame: NaN, ±0, ±Infinity, unicode ids and column names", () => {
    fc.assert(
      fc.property(frameArb, (frame) => expectSameFrame(readFrameParquet(writeFrameParquet(frame)), frame)),
      { numRuns: 60 },
    );
  });

  it("round-trips an empty frame, with and without columns", () => {
    for (const frame of <Frame[]>[
      { ids: [], exped: [], columns: {} },
      { ids: [], exped: [], columns: { target_everest: new Float64Array(0) } },
    ]) {
      expectSameFrame(readFrameParquet(writeFrameParquet(frame)), frame);
    }
  });

  it("lays the file out as id, exped, then Float64 columns, with pandas metadata naming id the index", () => {
    const frame: Frame = {
      ids: ["b", "a"],
      exped: ["exped_0001", "exped_0001"],
      columns: { feature_x: new Float64Array([1, 2]), target_everest: new Float64Array([0.5, NaN]) },
    };
    const schema = schemaOf(writeFrameParquet(frame));
    expect(schema.fields.map((f) => [f.name, String(f.type)])).toEqual([
      ["id", "Utf8"],
      ["exped", "Utf8"],
      ["feature_x", "Float64"],
      ["target_everest", "Float64"],
    ]);
    const pandas = JSON.parse(schema.metadata.get("pandas") ?? "null");
    expect(pandas.index_columns).toEqual(["id"]);
    expect(pandas.column_indexes).toHaveLength(1);
    expect(pandas.columns.map((c: { name: string; field_name: string; pandas_type: string; numpy_type: string }) => [c.name, c.field_name, c.pandas_type, c.numpy_type])).toEqual([
      ["id", "id", "unicode", "object"],
      ["exped", "exped", "unicode", "object"],
      ["feature_x", "feature_x", "float64", "float64"],
      ["target_everest", "target_everest", "float64", "float64"],
    ]);
  });

  it("reads int and float columns of any width as Float64Array, nulls as NaN", () => {
    const validity = new Uint8Array([0b101]); // row 1 is null
    const bytes = parquetOf({
      id: utf8Vector(["a", "b", "c"]),
      exped: utf8Vector(["e", "e", "e"]),
      i8: makeVector(makeData({ type: new Int8(), length: 3, nullCount: 1, nullBitmap: validity, data: new Int8Array([-1, 7, 4]) })),
      i64: makeVector(makeData({ type: new Int64(), length: 3, data: new BigInt64Array([1n, -2n, 3n]) })),
      f16: makeVector(makeData({ type: new Float16(), length: 3, data: new Uint16Array([0x3c00, 0xc000, 0x3800]) })),
      f32: makeVector(makeData({ type: new Float32(), length: 3, nullCount: 1, nullBitmap: validity, data: new Float32Array([0.25, 9, 0.75]) })),
      f64: makeVector(makeData({ type: new Float64(), length: 3, nullCount: 1, nullBitmap: validity, data: new Float64Array([0.5, 9, 1]) })),
    });
    const frame = readFrameParquet(bytes);
    expect(frame.ids).toEqual(["a", "b", "c"]);
    expect(Object.fromEntries(Object.entries(frame.columns).map(([k, v]) => [k, [v.constructor.name, ...v]]))).toEqual({
      i8: ["Float64Array", -1, NaN, 4],
      i64: ["Float64Array", 1, -2, 3],
      f16: ["Float64Array", 1, -2, 0.5],
      f32: ["Float64Array", 0.25, NaN, 0.75],
      f64: ["Float64Array", 0.5, NaN, 1],
    });
  });

  it("names the missing column when id or exped is absent", () => {
    const col = makeVector(new Float64Array([1]));
    expect(() => readFrameParquet(parquetOf({ id: utf8Vector(["a"]), x: col }))).toThrow(/'exped'/);
    expect(() => readFrameParquet(parquetOf({ exped: utf8Vector(["e"]), x: col }))).toThrow(/'id'/);
  });

  it("names a column that is neither int nor float", () => {
    const flag = makeVector(makeData({ type: new Bool(), length: 1, data: new Uint8Array([1]) }));
    const text = utf8Vector(["x"]);
    for (const [name, v] of [["flag", flag], ["note", text]] as const) {
      const bytes = parquetOf({ id: utf8Vector(["a"]), exped: utf8Vector(["e"]), [name]: v });
      expect(() => readFrameParquet(bytes)).toThrow(new RegExp(`'${name}'`));
    }
  });

  it("refuses a frame whose columns disagree in length or reuse a reserved name", () => {
    const ids = ["a", "b"];
    const exped = ["e", "e"];
    expect(() => writeFrameParquet({ ids, exped: ["e"], columns: {} })).toThrow(/2 ids but 1 exped/);
    expect(() => writeFrameParquet({ ids, exped, columns: { x: new Float64Array(3) } })).toThrow(/'x' has 3 rows/);
    expect(() => writeFrameParquet({ ids, exped, columns: { id: new Float64Array(2) } })).toThrow(/'id' clashes/);
  });
});
