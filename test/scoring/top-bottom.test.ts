import { describe, expect, it } from "vitest";
import { topBottomCount, topBottomRows } from "../../src/scoring/top-bottom.js";

describe("topBottomRows", () => {
  it("takes the lowest and highest predictions, in row order", () => {
    expect(topBottomRows(Float64Array.of(0.5, 0.1, 0.9, 0.3, 0.7), ["a", "b", "c", "d", "e"], 1)).toEqual([1, 2]);
    expect(topBottomRows(Float64Array.of(0.5, 0.1, 0.9, 0.3, 0.7), ["a", "b", "c", "d", "e"], 2)).toEqual([1, 2, 3, 4]);
  });

  it("breaks ties by id in byte order and skips rows that are not finite", () => {
    // the two lowest (0.1) tie: id "a" sorts first; the NaN row is never picked
    expect(topBottomRows(Float64Array.of(0.1, 0.1, NaN, 0.5, 0.2), ["b", "a", "c", "d", "e"], 1)).toEqual([1, 3]);
    expect(topBottomRows(Float64Array.of(1, 2, NaN), ["a", "b", "c"], 1)).toEqual([0, 1]);
  });
});

describe("topBottomCount", () => {
  it("is a whole number of rows, or a fraction of the exped's rows (at least 1)", () => {
    expect(topBottomCount(0.2, 92)).toBe(18);
    expect(topBottomCount(0.2, 200)).toBe(40);
    expect(topBottomCount(0.2, 3)).toBe(1);
    expect(topBottomCount(100, 92)).toBe(100);
  });

  it("refuses a setting that is neither", () => {
    for (const bad of [0, -1, 0.7, 2.5, NaN]) expect(() => topBottomCount(bad, 10), String(bad)).toThrow(/top\/bottom/);
  });
});
