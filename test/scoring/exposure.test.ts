import { describe, expect, it } from "vitest";
import { absPearson, exposureMoments, mergeMoments, NO_ROWS } from "../../src/scoring/exposure.js";
import { pearson } from "../../src/scoring/pearson.js";

describe("feature exposure's co-moments", () => {
  it("give |pearson| over the rows where the feature is present: -1 (missing) and non-finite rows are left out", () => {
    const p = Float64Array.of(1, 2, 3, 4);
    expect(absPearson(exposureMoments(p, Float64Array.of(4, 3, 2, 1)))).toBeCloseTo(1, 15);
    // Without its -1 rows the alternating feature is constant: no exposure.
    expect(absPearson(exposureMoments(p, Float64Array.of(1, -1, 1, -1)))).toBe(0);
    const f = Float64Array.of(0.3, Number.NaN, 2, 0.1);
    expect(absPearson(exposureMoments(p, f))).toBeCloseTo(Math.abs(pearson(Float64Array.of(1, 3, 4), Float64Array.of(0.3, 2, 0.1), 3)), 14);
    expect(absPearson(NO_ROWS)).toBe(0);
  });

  it("merge over disjoint row sets to the moments of their union", () => {
    const p = Float64Array.of(0.1, 0.7, 0.2, 0.9, 0.4, 0.5);
    const f = Float64Array.of(1, 3, -1, 4, 2, 0);
    const whole = absPearson(exposureMoments(p, f));
    const merged = absPearson(mergeMoments(exposureMoments(p.subarray(0, 3), f.subarray(0, 3)), exposureMoments(p.subarray(3), f.subarray(3))));
    expect(merged).toBeCloseTo(whole, 14);
  });
});
