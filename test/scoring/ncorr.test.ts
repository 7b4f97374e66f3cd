import { describe, expect, it } from "vitest";
import { imputeCore } from "../../src/scoring/ncorr.js";

describe("imputeCore", () => {
  it("fills the sentinel -1 and non-finite values with the mean of the rest, 0 if none", () => {
    const col = Float64Array.of(2, -1, NaN, 4, Infinity);
    imputeCore(col);
    expect(Array.from(col)).toEqual([2, 3, 3, 4, 3]);
    const empty = Float64Array.of(-1, NaN);
    imputeCore(empty);
    expect(Array.from(empty)).toEqual([0, 0]);
  });
});
