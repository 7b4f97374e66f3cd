import { describe, expect, it } from "vitest";
import { scoreExped } from "../../src/scoring/exped.js";
import { pearson } from "../../src/scoring/pearson.js";
import { topBottomCorr } from "../../src/scoring/top-bottom-corr.js";
import { topBottomCount } from "../../src/scoring/top-bottom-count.js";
import { topBottomRows } from "../../src/scoring/top-bottom-rows.js";

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

describe("topBottomCorr", () => {
  it("is the pearson of s(g(p)) and s(tc), both over every scored row, on the extreme rows only", () => {
    // g over 5 rows: ranks 1..5 → quantiles q1 < … < q5, q3 = 0; tc = t - 0.4
    const p = Float64Array.of(0.1, 0.2, 0.3, 0.4, 0.5);
    const t = Float64Array.of(0, 1, 0, 0, 1);
    // rows 0 and 4: two points, s(g) rises and s(tc) rises: pearson 1
    expect(topBottomCorr(p, t, ["a", "b", "c", "d", "e"], 1)).toBe(1);
    // rows 0, 1, 3, 4 against the same s(g(p)) and s(tc) computed over all five rows
    const g = [-1.2815515655446004, -0.5244005127080407, 0.5244005127080407, 1.2815515655446004].map((v) => Math.sign(v) * Math.abs(v) ** 1.5);
    const tc = [-0.4, 0.6, -0.4, 0.6].map((v) => Math.sign(v) * Math.abs(v) ** 1.5);
    expect(topBottomCorr(p, t, ["a", "b", "c", "d", "e"], 2)).toBeCloseTo(pearson(Float64Array.from(g), Float64Array.from(tc), 4), 14);
  });

  it("is CORR when the ends cover every row, and leaves out rows with a missing prediction or target", () => {
    const p = Float64Array.of(0.3, 0.1, NaN, 0.2, 0.9);
    const t = Float64Array.of(1, 0, 1, NaN, 0.5);
    const whole = topBottomCorr(p, t, ["a", "b", "c", "d", "e"], 5);
    expect(whole).toBe(scoreExped({ ids: ["a", "b", "c", "d", "e"], target: t, benchmark: null, core: [], prediction: p }).corr);
    expect(whole).toBe(topBottomCorr(Float64Array.of(0.3, 0.1, 0.9), Float64Array.of(1, 0, 0.5), ["a", "b", "e"], 2));
    expect(topBottomCorr(Float64Array.of(1, 2), Float64Array.of(1, 1), ["a", "b"], 1)).toBe(0);
  });
});
