import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Matrix, solve } from "ml-matrix";
import { fitLinear, predictLinear } from "../../src/data/least-squares.js";
import { mean } from "../../src/scoring/vector.js";

/** The normal equations written out pair by pair (each sum over the rows in order, each value centred where it is used): fitLinear must give these, bit for bit. */
function referenceFit(columns: Float64Array[], y: Float64Array, lambda: number) {
  const p = columns.length;
  const n = y.length;
  const means = columns.map((x) => mean(x, n));
  const yMean = mean(y, n);
  const xtx = Matrix.zeros(p, p);
  const xty = Matrix.zeros(p, 1);
  for (let a = 0; a < p; a++) {
    for (let b = 0; b < p; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += (columns[a][i] - means[a]) * (columns[b][i] - means[b]);
      xtx.set(a, b, s + (a === b ? lambda : 0));
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += (columns[a][i] - means[a]) * (y[i] - yMean);
    xty.set(a, 0, s);
  }
  const coefficients = solve(xtx, xty).getColumn(0);
  return { coefficients, intercept: coefficients.reduce((c, w, a) => c - w * means[a], yMean) };
}

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

  it("gives the normal equations' solution to the bit", () => {
    const data = fc.integer({ min: 1, max: 4 }).chain((p) =>
      fc.integer({ min: p + 2, max: 80 }).chain((n) => {
        const column = fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: n, maxLength: n }).map((xs) => Float64Array.from(xs));
        return fc.tuple(fc.array(column, { minLength: p, maxLength: p }), column, fc.constantFrom(0, 0.5, 10));
      }),
    );
    fc.assert(
      fc.property(data, ([columns, y, lambda]) => {
        let reference: ReturnType<typeof referenceFit>;
        try {
          reference = referenceFit(columns, y, lambda);
        } catch (e) {
          // A singular system (a constant column, unpenalised) is refused alike.
          expect(() => fitLinear(columns, y, lambda)).toThrow((e as Error).message);
          return;
        }
        const fit = fitLinear(columns, y, lambda);
        expect(Array.from(fit.coefficients)).toEqual(reference.coefficients);
        expect(fit.intercept).toBe(reference.intercept);
      }),
    );
  });
});
