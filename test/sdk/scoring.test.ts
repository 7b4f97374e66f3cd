import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { scoreExped } from "../../src/scoring/exped.js";
import { aimc20 } from "../../src/sdk/scoring.js";
import { referenceTerms } from "../scoring/reference.js";

const asRecord = (ids: string[], values: ArrayLike<number>) => Object.fromEntries(ids.map((id, i) => [id, values[i]]));

describe("aimc20", () => {
  it("is the engine's AIMC, from records or from {ids, values} series alike", () => {
    const ids = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 3, maxLength: 25, size: "max" });
    const value = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(ids, fc.array(value, { minLength: 75, maxLength: 75 }), (rows, xs) => {
        const n = rows.length;
        const p = xs.slice(0, n);
        const b = xs.slice(25, 25 + n);
        const t = xs.slice(50, 50 + n).map((v) => Math.round(v * 4) / 4);
        const expected = referenceTerms({ ids: rows, target: t, benchmark: b, core: [] }, rows, p).aimc!;
        const fromSeries = aimc20({ ids: rows, values: p }, { ids: rows, values: Float64Array.from(b) }, { ids: rows, values: t });
        expect(Math.abs(fromSeries! - expected)).toBeLessThanOrEqual(1e-12);
        expect(aimc20(asRecord(rows, p), asRecord(rows, b), asRecord(rows, t))).toBe(fromSeries);
        expect(fromSeries).toBe(
          scoreExped({ ids: rows, target: Float64Array.from(t), benchmark: Float64Array.from(b), core: [], prediction: Float64Array.from(p) }).aimc,
        );
      }),
      { numRuns: 100 },
    );
  });

  it("aligns the three series by id and is exactly 0 for the benchmark itself", () => {
    const ai = { a: 0.1, b: 0.5, c: 0.7, d: 0.3 };
    const target = { d: 1, c: 0.5, b: 0, a: 0.25, z: 1 };
    expect(aimc20(ai, ai, target)).toBe(0);
    expect(aimc20({ c: 70, a: 10, b: 50, d: 30 }, ai, target)).toBe(0);
    expect(aimc20({ a: 0.9, b: 0.1, c: 0.2, d: 0.5 }, ai, target)).not.toBe(0);
  });

  it("is null when the benchmark shares no row with the target", () => {
    expect(aimc20({ a: 1, b: 2 }, { x: 1, y: 2 }, { a: 0, b: 1 })).toBeNull();
  });
});
