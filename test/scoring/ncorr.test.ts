import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coreBasis, imputeCore } from "../../src/scoring/ncorr.js";
import { dot } from "../../src/scoring/vector.js";

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

describe("coreBasis", () => {
  it("is orthonormal and drops dependent columns (constant, duplicated, all-zero)", () => {
    const n = 6;
    const a = Float64Array.of(1, 2, 3, 4, 5, 7);
    const b = Float64Array.of(0, 1, 0, 1, 1, 0);
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    const basis = coreBasis([a, new Float64Array(n).fill(3), b, a.map((v, i) => 2 * v - b[i]), new Float64Array(n)], rows, n);
    expect(basis.k).toBe(3); // intercept, a, b
    const col = (j: number) => basis.q.subarray(j * n, (j + 1) * n);
    for (let i = 0; i < basis.k; i++)
      for (let j = 0; j < basis.k; j++) expect(dot(col(i), col(j), n)).toBeCloseTo(i === j ? 1 : 0, 12);
  });

  it("spans the intercept and every feature over the chosen rows", () => {
    const value = fc.integer({ min: 0, max: 9 });
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 12, maxLength: 12 }), { maxLength: 4 }), (cols) => {
        const core = cols.map((c) => Float64Array.from(c));
        const rows = Int32Array.of(0, 2, 3, 5, 7, 8, 9, 11);
        const basis = coreBasis(core, rows, rows.length);
        for (const f of [new Float64Array(12).fill(1), ...core]) {
          const v = Float64Array.from(rows, (r) => f[r]);
          const projected = new Float64Array(v.length);
          for (let j = 0; j < basis.k; j++) {
            const q = basis.q.subarray(j * v.length, (j + 1) * v.length);
            const c = dot(q, v, v.length);
            for (let i = 0; i < v.length; i++) projected[i] += c * q[i];
          }
          v.forEach((x, i) => expect(Math.abs(projected[i] - x)).toBeLessThan(1e-9));
        }
      }),
    );
  });
});
