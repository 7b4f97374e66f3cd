import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketArgsort } from "../../src/scoring/bucket-sort.js";

const stableOrder = (x: number[]) => x.map((_, i) => i).sort((a, b) => x[a] - x[b] || a - b);

describe("bucketArgsort", () => {
  it("orders values ascending with ties in index order, or declines", () => {
    const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300, size: "max" }), (xs) => {
        const x = Float64Array.from(xs, (v) => (v === 0 ? 0 : v)); // -0 ties +0
        const order = bucketArgsort(x, x.length);
        if (order) expect(Array.from(order.subarray(0, x.length))).toEqual(stableOrder(Array.from(x)));
      }),
    );
  });

  it("sorts spread-out and heavily tied data itself, and declines values crowded into one bucket", () => {
    const spread = Float64Array.from({ length: 1000 }, (_, i) => Math.sin(i) * 3);
    expect(bucketArgsort(spread, 1000)).not.toBeNull();
    expect(bucketArgsort(Float64Array.from({ length: 1000 }, (_, i) => i % 5), 1000)).not.toBeNull();
    expect(bucketArgsort(Float64Array.from({ length: 1000 }, (_, i) => (i === 0 ? 1e300 : Math.sin(i))), 1000)).toBeNull();
  });
});
