import { describe, expect, it } from "vitest";
import { featureExposures } from "../../src/scoring/feature-exposures.js";
import { pearson } from "../../src/scoring/pearson.js";

describe("featureExposures", () => {
  it("gives |pearson| per exped and pooled over every row, skipping missing feature values", () => {
    const p1 = Float64Array.of(1, 2, 3, 4);
    const p2 = Float64Array.of(4, 1, 2, 3);
    const f1 = Float64Array.of(4, 3, 2, 1);
    const f2 = Float64Array.of(1, 3, -1, 2);
    const { perExped, pooled } = featureExposures([
      { prediction: p1, features: [f1] },
      { prediction: p2, features: [f2] },
    ]);
    expect(perExped[0][0]).toBeCloseTo(1, 15);
    // the -1 (missing) row is left out: pearson((4, 1, 3), (1, 3, 2))
    expect(perExped[1][0]).toBeCloseTo(Math.abs(pearson(Float64Array.of(4, 1, 3), Float64Array.of(1, 3, 2), 3)), 15);
    const p = Float64Array.of(1, 2, 3, 4, 4, 1, 3);
    const f = Float64Array.of(4, 3, 2, 1, 1, 3, 2);
    expect(pooled[0]).toBeCloseTo(Math.abs(pearson(p, f, 7)), 14);
  });

  it("is 0 for a constant feature and refuses expeds with different feature counts", () => {
    expect(featureExposures([{ prediction: Float64Array.of(1, 2, 3), features: [Float64Array.of(2, 2, 2)] }]).perExped).toEqual([[0]]);
    expect(() =>
      featureExposures([
        { prediction: Float64Array.of(1, 2), features: [Float64Array.of(1, 2)] },
        { prediction: Float64Array.of(1, 2), features: [] },
      ]),
    ).toThrow(/an exped has 0 features for 1/);
  });
});
