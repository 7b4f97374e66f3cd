import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsort, uniformRanks } from "../../src/data/ranks.js";

describe("uniformRanks", () => {
  it("gives ties their average rank", () => {
    expect(Array.from(uniformRanks(new Float64Array([3, 1, 3, 2])))).toEqual([0.75, 0.125, 0.75, 0.375]);
  });

  it("lies strictly inside (0, 1), averages 1/2 and preserves order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 60, size: "max" }), (xs) => {
        const v = Float64Array.from(xs);
        const u = uniformRanks(v);
        expect(u.every((x) => x > 0 && x < 1)).toBe(true);
        expect(u.reduce((s, x) => s + x, 0) / u.length).toBeCloseTo(0.5, 12);
        for (let i = 0; i < v.length; i++) {
          for (let j = 0; j < v.length; j++) expect(Math.sign(u[i] - u[j])).toBe(Math.sign(v[i] - v[j]));
        }
      }),
    );
  });
});

describe("argsort", () => {
  it("orders by value, ties by index", () => {
    expect(Array.from(argsort(new Float64Array([2, 0, 2, 1])))).toEqual([1, 3, 0, 2]);
  });

  it("gives the order of a sort by value then index, at every length, spread out or crowded", () => {
    const values = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1e300));
    fc.assert(
      fc.property(fc.array(values, { maxLength: 300, size: "max" }), (xs) => {
        const expected = xs.map((_, i) => i).sort((a, b) => (xs[a] < xs[b] ? -1 : xs[a] > xs[b] ? 1 : a - b));
        expect(Array.from(argsort(Float64Array.from(xs)))).toEqual(expected);
      }),
    );
  });
});
