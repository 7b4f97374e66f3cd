import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalQuantile } from "../../src/scoring/gaussian.js";
import { prepareExped, scoreAgainst, scoreExped, type ExpedTerms } from "../../src/scoring/exped.js";
import { expedCase, increasingTransform, permutationOf, type ExpedCase } from "./arbitraries.js";
import { referenceTerms } from "./reference.js";

const RUNS = { numRuns: 150 };
const score = (c: ExpedCase, predictionIds = c.ids, prediction = c.prediction) =>
  scoreExped({ ...c, predictionIds, prediction });
const permuted = (x: Float64Array, order: number[]) => Float64Array.from(order, (i) => x[i]);

type Expected = { n: number; corr: number; aimc: number | null; ncorr: number; ncorrWellPosed?: boolean };

function expectClose(a: ExpedTerms, b: Expected, tol: number) {
  expect(a.n).toBe(b.n);
  expect(Math.abs(a.corr - b.corr)).toBeLessThanOrEqual(tol);
  if (b.ncorrWellPosed !== false) expect(Math.abs(a.ncorr - b.ncorr)).toBeLessThanOrEqual(tol);
  if (b.aimc === null) expect(a.aimc).toBeNull();
  else expect(Math.abs(a.aimc! - b.aimc)).toBeLessThanOrEqual(tol);
}

describe("scoreExped against the reference", () => {
  it("equals the slow reference to 1e-12 (ties, NaNs, missing features, partial and extra prediction rows)", () => {
    fc.assert(
      fc.property(expedCase(), fc.array(fc.boolean()), fc.array(fc.string({ minLength: 5, maxLength: 5 })), (c, keep, extra) => {
        const predictionIds = c.ids.filter((_, i) => keep[i] ?? true);
        const prediction = Float64Array.from(c.ids.flatMap((_, i) => ((keep[i] ?? true) ? [c.prediction[i]] : [])));
        const ids = [...predictionIds, ...extra.filter((x) => !c.ids.includes(x) && !predictionIds.includes(x))];
        const values = Float64Array.from([...prediction, ...ids.slice(predictionIds.length).map(() => 0.5)]);
        expectClose(score(c, ids, values), referenceTerms(c, ids, values), 1e-12);
      }),
      RUNS,
    );
  });

  it("scores a worked example", () => {
    // ids out of order; one NaN prediction; the target-side mean is over the scored rows only.
    const terms = scoreExped({
      ids: ["d", "b", "a", "c", "e"],
      target: Float64Array.of(1, 0.5, 0, 0.75, 0.25),
      benchmark: Float64Array.of(0.9, 0.4, 0.1, 0.8, 0.3),
      core: [Float64Array.of(1, -1, 3, 2, NaN)],
      prediction: Float64Array.of(0.8, 0.5, 0.1, 0.6, NaN),
    });
    expectClose(
      terms,
      referenceTerms(
        { ids: ["a", "b", "c", "d"], target: [0, 0.5, 0.75, 1], benchmark: [0.1, 0.4, 0.8, 0.9], core: [[3, 2, 2, 1]] },
        ["a", "b", "c", "d"],
        [0.1, 0.5, 0.6, 0.8],
      ),
      1e-15,
    );
    expect(terms.n).toBe(4);
    // p is an increasing function of b on these rows, so AIMC is exactly 0 and CORR is high.
    expect(terms.aimc).toBe(0);
    expect(terms.corr).toBeGreaterThan(0.9);
  });
});

describe("scoring invariants", () => {
  it("AIMC is exactly 0 for the benchmark itself or any strictly increasing transform of it (heavy ties)", () => {
    const steps = fc.array(fc.double({ min: 1e-3, max: 10, noNaN: true }), { minLength: 1 });
    fc.assert(
      fc.property(expedCase(40), steps, fc.double({ min: -100, max: 100, noNaN: true }), (c, s, offset) => {
        fc.pre(c.benchmark !== null);
        const b = c.benchmark!.map((v) => Math.round(v * 4) / 4);
        const withTies = { ...c, benchmark: b };
        for (const prediction of [b, increasingTransform(b, s, offset)]) {
          const { aimc } = score(withTies, c.ids, prediction);
          if (aimc !== null) expect(aimc === 0).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("CORR and NCORR lie in [-1, 1]; CORR is unchanged by a strictly increasing transform", () => {
    const steps = fc.array(fc.double({ min: 1e-3, max: 10, noNaN: true }), { minLength: 1 });
    fc.assert(
      fc.property(expedCase(), steps, (c, s) => {
        const t = score(c);
        for (const v of [t.corr, t.ncorr]) expect(Math.abs(v)).toBeLessThanOrEqual(1);
        expect(score(c, c.ids, increasingTransform(c.prediction, s, -3)).corr).toBe(t.corr);
      }),
      RUNS,
    );
  });

  it("shuffling rows (truth and prediction independently) changes no term, bit for bit", () => {
    const shuffled = expedCase().chain((c) =>
      fc.tuple(fc.constant(c), permutationOf(c.ids.length), permutationOf(c.ids.length)),
    );
    fc.assert(
      fc.property(shuffled, ([c, rowOrder, predOrder]) => {
        const truth = {
          ids: rowOrder.map((i) => c.ids[i]),
          target: permuted(c.target, rowOrder),
          benchmark: c.benchmark && permuted(c.benchmark, rowOrder),
          core: c.core.map((col) => permuted(col, rowOrder)),
        };
        const moved = scoreExped({
          ...truth,
          predictionIds: predOrder.map((i) => c.ids[i]),
          prediction: permuted(c.prediction, predOrder),
        });
        expect(moved).toStrictEqual(score(c));
      }),
      RUNS,
    );
  });

  it("adding a constant to the target changes no term beyond 1e-12", () => {
    fc.assert(
      fc.property(expedCase(), fc.double({ min: -100, max: 100, noNaN: true }), (c, shift) => {
        expectClose(score({ ...c, target: c.target.map((v) => v + shift) }), score(c), 1e-12);
      }),
      RUNS,
    );
  });

  it("gives the same terms whether the exped is prepared once or per prediction", () => {
    fc.assert(
      fc.property(expedCase(), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 30, maxLength: 30 }), (c, other) => {
        const prepared = prepareExped(c);
        const second = Float64Array.from(c.ids, (_, i) => other[i]);
        expect(scoreAgainst(prepared, c.ids, c.prediction)).toStrictEqual(score(c));
        expect(scoreAgainst(prepared, c.ids, second)).toStrictEqual(score(c, c.ids, second));
      }),
      RUNS,
    );
  });
});

describe("degenerate cases", () => {
  const base = {
    ids: ["a", "b", "c", "d"],
    target: Float64Array.of(0, 0.25, 0.5, 1),
    benchmark: Float64Array.of(0.1, 0.2, 0.3, 0.4),
    core: [],
  };

  it("AIMC is null with no benchmark, or no row where benchmark and target are both finite", () => {
    const p = Float64Array.of(0.4, 0.3, 0.2, 0.1);
    expect(scoreExped({ ...base, benchmark: null, prediction: p }).aimc).toBeNull();
    expect(scoreExped({ ...base, benchmark: new Float64Array(4).fill(NaN), prediction: p }).aimc).toBeNull();
    expect(scoreExped({ ...base, prediction: p }).aimc).not.toBeNull();
  });

  it("every term is 0 for a constant prediction, a constant target, or fewer than 2 rows", () => {
    const zero = { corr: 0, aimc: 0, ncorr: 0 };
    expect(scoreExped({ ...base, prediction: new Float64Array(4).fill(0.5) })).toMatchObject(zero);
    expect(scoreExped({ ...base, target: new Float64Array(4).fill(0.1), prediction: Float64Array.of(1, 2, 3, 4) })).toMatchObject(zero);
    expect(scoreExped({ ...base, prediction: Float64Array.of(NaN, NaN, 3, NaN) })).toStrictEqual({ n: 1, ...zero });
  });

  it("NCORR is 0 when the prediction's gaussianised rank is a linear function of a core feature", () => {
    const p = Float64Array.of(0.9, 0.1, 0.5, 0.3);
    const rank = [4, 1, 3, 2];
    const feature = Float64Array.from(rank, (r) => 3 * normalQuantile((r - 0.5) / 4) + 2);
    const terms = scoreExped({ ...base, core: [feature], prediction: p });
    expect(terms.corr).not.toBe(0);
    expect(terms.ncorr).toBe(0);
    expect(scoreExped({ ...base, core: [Float64Array.of(0, 1, 0, 2)], prediction: p }).ncorr).not.toBe(0);
  });

  it("refuses duplicate ids and mismatched lengths", () => {
    expect(() => prepareExped({ ...base, ids: ["a", "b", "a", "d"] })).toThrow(/'a' appears more than once/);
    expect(() => prepareExped({ ...base, target: Float64Array.of(1) })).toThrow(/target has 1 values for 4 ids/);
    const prepared = prepareExped(base);
    expect(() => scoreAgainst(prepared, ["a", "a"], Float64Array.of(1, 2))).toThrow(/'a' appears more than once/);
  });
});
