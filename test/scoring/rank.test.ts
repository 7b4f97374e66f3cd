import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankUniform } from "../../src/scoring/rank.js";
import { textbookRank } from "./reference.js";

describe("rankUniform", () => {
  it("gives tied values their average rank", () => {
    const out = new Float64Array(5);
    rankUniform(Float64Array.of(10, 20, 10, 10, -5), 5, out);
    // ranks: -5 → 1; the three 10s share (2+3+4)/3 = 3; 20 → 5
    expect(Array.from(out)).toEqual([2.5 / 5, 4.5 / 5, 2.5 / 5, 2.5 / 5, 0.5 / 5]);
  });

  it("equals the textbook rank on any data with ties, and can write in place", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: true, noDefaultInfinity: true }))), (xs) => {
        const n = xs.length;
        const x = Float64Array.from(xs);
        rankUniform(x, n, x);
        expect(Array.from(x)).toEqual(textbookRank(xs).map((r) => (r - 0.5) / n));
      }),
    );
  });
});
