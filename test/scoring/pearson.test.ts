import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pearson } from "../../src/scoring/pearson.js";
import { referencePearson } from "./reference.js";

describe("pearson", () => {
  it("is 1, -1 and 0 on exact cases", () => {
    const x = Float64Array.of(1, 2, 3, 4);
    expect(pearson(x, Float64Array.of(2, 4, 6, 8), 4)).toBeCloseTo(1, 15);
    expect(pearson(x, Float64Array.of(8, 6, 4, 2), 4)).toBeCloseTo(-1, 15);
    expect(pearson(x, Float64Array.of(1, -1, -1, 1), 4)).toBe(0);
  });

  it("is 0 with fewer than 2 rows or a constant side (no rounding noise)", () => {
    expect(pearson(Float64Array.of(1), Float64Array.of(2), 1)).toBe(0);
    expect(pearson(Float64Array.of(0.1, 0.1, 0.1), Float64Array.of(1, 2, 3), 3)).toBe(0);
  });

  it("matches the textbook formula and stays in [-1, 1]", () => {
    // Subnormal inputs underflow the textbook product of sums to 0/0; keep to normal magnitudes.
    const value = fc.double({ min: -100, max: 100, noNaN: true }).map((v) => (Math.abs(v) < 1e-100 ? 0 : v));
    const col = fc.array(value, { minLength: 2, maxLength: 30, size: "max" });
    fc.assert(
      fc.property(col, col, (a, b) => {
        const n = Math.min(a.length, b.length);
        const r = pearson(Float64Array.from(a), Float64Array.from(b), n);
        expect(Math.abs(r)).toBeLessThanOrEqual(1);
        expect(Math.abs(r - referencePearson(a.slice(0, n), b.slice(0, n)))).toBeLessThan(1e-12);
      }),
    );
  });
});
