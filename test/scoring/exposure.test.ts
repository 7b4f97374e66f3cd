import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NumericColumn } from "../../src/domain/frame.js";
import { absPearson, type CoMoments, exposureMoments, exposuresOf, mergeMoments, NO_ROWS } from "../../src/scoring/exposure.js";
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

  it("of many features at once are exposureMoments' of each, to the bit (absent values, non-finite predictions, constant columns, any column type)", () => {
    const value = fc.oneof(fc.constantFrom(-1, 0, 1, 2, 4, Number.NaN, Number.POSITIVE_INFINITY), fc.double({ min: -5, max: 5, noNaN: true }));
    const case_ = fc.integer({ min: 0, max: 12 }).chain((n) =>
      fc.record({
        p: fc.array(fc.oneof({ weight: 6, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) }, { weight: 1, arbitrary: value }), { minLength: n, maxLength: n }),
        features: fc.array(
          fc.record({
            kind: fc.constantFrom("int8", "float32", "float64"),
            values: fc.array(fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 4 }) }, { weight: 1, arbitrary: value }), { minLength: n, maxLength: n }),
          }),
          { maxLength: 5 },
        ),
      }),
    );
    const column = ({ kind, values }: { kind: string; values: number[] }): NumericColumn =>
      kind === "int8" ? Int8Array.from(values.map((v) => (Number.isFinite(v) ? Math.trunc(v) : -1))) : kind === "float32" ? Float32Array.from(values) : Float64Array.from(values);
    const bits = (m: CoMoments) => Object.values(m).map((v) => (Object.is(v, -0) ? "-0" : String(v)));
    fc.assert(
      fc.property(case_, ({ p, features }) => {
        const prediction = Float64Array.from(p);
        const columns = features.map(column);
        expect(exposuresOf(prediction, columns).map(bits)).toEqual(columns.map((f) => bits(exposureMoments(prediction, f))));
      }),
      { numRuns: 500 },
    );
  });
});
