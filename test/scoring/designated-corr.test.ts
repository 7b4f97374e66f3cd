import { describe, expect, it } from "vitest";
import { designatedCorr } from "../../src/scoring/designated-corr.js";

describe("designatedCorr", () => {
  it("is pearson of the two gaussianised ranks", () => {
    // ranks (1, 2, 3) and (1, 3, 2): g = (-a, 0, a) and (-a, a, 0), pearson a² / 2a²
    expect(designatedCorr(Float64Array.of(1, 2, 3), Float64Array.of(10, 30, 20))).toBeCloseTo(0.5, 15);
  });

  it("is exactly 1 for any increasing function of the benchmark, and skips rows where either is missing", () => {
    const b = Float64Array.of(0.3, 0.9, 0.1, 0.5, 0.7);
    expect(designatedCorr(b.map((v) => v ** 3 + 2), b)).toBeCloseTo(1, 15);
    expect(designatedCorr(Float64Array.of(1, NaN, 3, 2), Float64Array.of(1, 5, 3, NaN))).toBeCloseTo(1, 15);
  });

  it("is 0 for a constant side or under 2 rows, and refuses arrays of different lengths", () => {
    expect(designatedCorr(Float64Array.of(1, 1, 1), Float64Array.of(1, 2, 3))).toBe(0);
    expect(designatedCorr(Float64Array.of(1), Float64Array.of(1))).toBe(0);
    expect(() => designatedCorr(Float64Array.of(1, 2), Float64Array.of(1))).toThrow(/benchmark has 1 values for 2/);
  });
});
