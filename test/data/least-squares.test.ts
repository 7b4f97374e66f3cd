import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLinear, predictLinear } from "../../src/data/least-squares.js";

describe("fitLinear", () => {
  it("recovers the coefficients and intercept of a noiseless linear target", () => {
    const coef = fc.double({ min: -10, max: 10, noNaN: true });
    fc.assert(
      fc.property(fc.tuple(coef, coef, coef), ([a, b, c]) => {
        const x1 = Float64Array.from({ length: 50 }, (_, i) => i % 7);
        const x2 = Float64Array.from({ length: 50 }, (_, i) => (i * i) % 11);
        const y = x1.map((v, i) => a * v + b * x2[i] + c);
        const fit = fitLinear([x1, x2], y);
        expect(fit.coefficients[0]).toBeCloseTo(a, 8);
        expect(fit.coefficients[1]).toBeCloseTo(b, 8);
        expect(fit.intercept).toBeCloseTo(c, 8);
        predictLinear(fit, [x1, x2]).forEach((p, i) => expect(p).toBeCloseTo(y[i], 8));
      }),
      { numRuns: 30 },
    );
  });

  it("shrinks the slope, not the intercept, under a ridge penalty", () => {
    const x = Float64Array.from([0, 1, 2, 3]);
    const y = Float64Array.from([1, 3, 5, 7]); // slope 2, intercept 1; centred Σx² = 5
    const fit = fitLinear([x], y, 5);
    expect(fit.coefficients[0]).toBeCloseTo(1, 12); // Σxy / (Σx² + λ) = 10 / 10
    expect(fit.intercept).toBeCloseTo(4 - 1 * 1.5, 12); // ȳ - β·x̄
  });
});
