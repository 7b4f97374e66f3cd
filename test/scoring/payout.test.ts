import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { payoutFactor, tournamentPayout } from "../../src/scoring/payout.js";

/** Whole micro amounts, small and up to 2^50 (over a billion USDC). */
const micro = fc.oneof(fc.nat(), fc.maxSafeNat().map((n) => Math.floor(n / 8)));
const positiveMicro = micro.map((n) => n + 1);
const score = fc.double({ min: -10, max: 10, noNaN: true });
const cap = fc.double({ min: 1e-6, max: 1, noNaN: true });

describe("payoutFactor", () => {
  it("is 1 up to the threshold and threshold / total above it", () => {
    expect(payoutFactor(0, 100)).toBe(1);
    expect(payoutFactor(100, 100)).toBe(1);
    expect(payoutFactor(400, 100)).toBe(0.25);
  });

  it("stays in (0, 1] and never grows as more stake piles in", () => {
    fc.assert(
      fc.property(micro, micro, positiveMicro, (a, b, threshold) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const f = payoutFactor(hi, threshold);
        expect(f).toBeGreaterThan(0);
        expect(f).toBeLessThanOrEqual(1);
        expect(f).toBeLessThanOrEqual(payoutFactor(lo, threshold));
      }),
    );
  });
});

describe("tournamentPayout", () => {
  it("is score × factor of the stake, truncated toward zero to whole micro, and capped", () => {
    expect(tournamentPayout(10_000_000, 0.05, 1, 0.25)).toBe(500_000);
    expect(tournamentPayout(10_000_000, 0.05, 0.5, 0.25)).toBe(250_000);
    expect(tournamentPayout(10_000_000, 0.9, 1, 0.25)).toBe(2_500_000);
    expect(tournamentPayout(10_000_000, -0.9, 1, 0.25)).toBe(-2_500_000);
    expect(tournamentPayout(3, 0.25, 1, 0.25)).toBe(0);
    expect(tournamentPayout(3, -0.25, 1, 0.25)).toBe(0);
    expect(Object.is(tournamentPayout(3, -0.25, 1, 0.25), 0)).toBe(true);
  });

  it("never exceeds payout_cap × stake in absolute value, whatever the score and factor", () => {
    fc.assert(
      fc.property(micro, score, micro, positiveMicro, cap, (principal, s, total, threshold, c) => {
        const payout = tournamentPayout(principal, s, payoutFactor(total, threshold), c);
        expect(Number.isInteger(payout)).toBe(true);
        expect(Math.abs(payout)).toBeLessThanOrEqual(c * principal);
        expect(Math.sign(payout) * Math.sign(s)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
