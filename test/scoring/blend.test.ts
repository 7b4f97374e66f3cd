import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultScoringSettings, meanTerms, roundScore } from "../../src/scoring/blend.js";

const term = fc.double({ min: -1, max: 1, noNaN: true });

describe("roundScore", () => {
  it("blends with the weights and clips", () => {
    expect(roundScore({ corr: 0.02, aimc: 0.01, ncorr: 0.03 }, defaultScoringSettings)).toBeCloseTo(0.07, 15);
    expect(roundScore({ corr: 0.2, aimc: 0.1, ncorr: 0 }, defaultScoringSettings)).toBe(0.25);
    expect(roundScore({ corr: -0.2, aimc: -0.1, ncorr: 0 }, defaultScoringSettings)).toBe(-0.25);
    expect(roundScore({ corr: 1, aimc: 1, ncorr: 1 }, { weights: { corr: 0.5, aimc: 0, ncorr: 0 }, clip: 1 })).toBe(0.5);
  });

  it("never leaves [-clip, clip]", () => {
    const weight = fc.double({ min: -5, max: 5, noNaN: true });
    fc.assert(
      fc.property(term, term, term, weight, weight, weight, fc.double({ min: 0, max: 2, noNaN: true }), (c, a, n, wc, wa, wn, clip) => {
        const s = roundScore({ corr: c, aimc: a, ncorr: n }, { weights: { corr: wc, aimc: wa, ncorr: wn }, clip });
        expect(Math.abs(s)).toBeLessThanOrEqual(clip);
      }),
    );
  });
});

describe("meanTerms", () => {
  it("averages over expeds; AIMC is null if any exped's is", () => {
    expect(meanTerms([{ n: 5, corr: 0.1, aimc: 0.2, ncorr: 0.3 }, { n: 9, corr: 0.3, aimc: 0, ncorr: 0.1 }])).toEqual({
      corr: 0.2,
      aimc: 0.1,
      ncorr: 0.2,
    });
    expect(meanTerms([{ n: 5, corr: 0.1, aimc: 0.2, ncorr: 0.3 }, { n: 9, corr: 0.3, aimc: null, ncorr: 0.1 }]).aimc).toBeNull();
    expect(meanTerms([])).toEqual({ corr: 0, aimc: null, ncorr: 0 });
  });
});
