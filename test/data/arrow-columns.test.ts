import { Float32, Float64, LargeUtf8, Utf8, Vector, makeData } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { readNumbers, readStrings, utf8Vector } from "../../src/data/arrow-columns.js";

const utf8 = (values: string[]) => utf8Vector(values).data[0];

describe("readStrings / readNumbers over several chunks", () => {
  it("reads Utf8 chunks in order, ASCII and not", () => {
    const v = new Vector([utf8(["a", "bc"]), utf8(["ü", "", "日本"])]);
    expect(readStrings("id", v)).toEqual(["a", "bc", "ü", "", "日本"]);
  });

  it("reads LargeUtf8 (64-bit offsets)", () => {
    const data = new TextEncoder().encode("xyé");
    const v = new Vector([makeData({ type: new LargeUtf8(), length: 2, valueOffsets: new BigInt64Array([0n, 2n, 4n]), data })]);
    expect(readStrings("id", v)).toEqual(["xy", "é"]);
  });

  it("refuses a null id, naming the column and row", () => {
    const d = makeData({ type: new Utf8(), length: 2, nullCount: 1, nullBitmap: new Uint8Array([0b01]), valueOffsets: new Int32Array([0, 1, 1]), data: new Uint8Array([97]) });
    expect(() => readStrings("id", new Vector([d]))).toThrow("Column 'id' has a null at row 1");
  });

  it("concatenates numeric chunks of different widths into one Float64Array", () => {
    const v = new Vector([
      makeData({ type: new Float64(), length: 2, data: new Float64Array([1, 2]) }),
      makeData({ type: new Float64(), length: 1, nullCount: 1, nullBitmap: new Uint8Array([0]), data: new Float64Array([3]) }),
    ]);
    expect(Array.from(readNumbers("x", v))).toEqual([1, 2, NaN]);
    const f32 = new Vector([makeData({ type: new Float32(), length: 2, data: new Float32Array([0.5, -1]) })]);
    expect(readNumbers("y", f32)).toEqual(new Float64Array([0.5, -1]));
  });

  it("shares memory with a single null-free Float64 chunk", () => {
    const values = new Float64Array([1, 2, 3]);
    const out = readNumbers("x", new Vector([makeData({ type: new Float64(), length: 3, data: values })]));
    expect(out.buffer).toBe(values.buffer);
  });
});
