import { describe, expect, it } from "vitest";
import { fnCorr } from "../../sim/backtest/fn-corr.js";
import { asFloat64, type Frame } from "../../src/domain/frame.js";
import { scoreExped } from "../../src/scoring/exped.js";

/** A round of 120 rows and 10 int8 features (ids out of byte order, a missing feature value), values from a fixed linear congruential sequence. */
function round(): { frame: Frame; target: Float64Array; next: () => number } {
  let seed = 5;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const ids = Array.from({ length: 120 }, (_, i) => `id${String((i * 37) % 120).padStart(4, "0")}`);
  const columns = Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`feature_${j}`, Int8Array.from(ids, () => Math.floor(next() * 5))]));
  columns.feature_3[17] = -1;
  return { frame: { ids, exped: ids.map(() => "exped_0001"), columns }, target: Float64Array.from(ids, next), next };
}

describe("FN CORR", () => {
  it("is scoreExped's NCORR with every feature as the core, to the bit, for every contender on a round whose truth it prepares once", () => {
    const { frame, target, next } = round();
    const features = Object.values(frame.columns);
    for (let contender = 0; contender < 3; contender++) {
      const prediction = Float64Array.from(frame.ids, next);
      if (contender === 2) prediction[4] = NaN;
      const expected = scoreExped({ ids: frame.ids, target, benchmark: null, core: features.map(asFloat64), prediction }).ncorr;
      expect(fnCorr({ ids: frame.ids, prediction, target, features, round: frame })).toBe(expected);
      expect(fnCorr({ ids: frame.ids, prediction, target, features })).toBe(expected);
    }
  });
});
