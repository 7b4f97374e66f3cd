import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eventPayout, eventReturn } from "../../src/scoring/payout.js";

const score = fc.double({ min: -1, max: 1, noNaN: true });
const amplitude = fc.double({ min: 0.01, max: 2, noNaN: true });
const factor = fc.double({ min: 0.001, max: 1, noNaN: true });

describe("the event payout map", () => {
  it("never pays more than A times the stake either way", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), score, factor, amplitude, (stake, s, pf, a) => {
        expect(Math.abs(eventPayout(stake, s, pf, a))).toBeLessThanOrEqual(a * stake);
      }),
    );
  });

  it("is monotone in the score, so it never reorders models", () => {
    fc.assert(
      fc.property(score, score, factor, amplitude, (x, y, pf, a) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        expect(eventReturn(lo, pf, a)).toBeLessThanOrEqual(eventReturn(hi, pf, a));
      }),
    );
  });
});
