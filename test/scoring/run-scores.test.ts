import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { prepareExped, scoreAgainst } from "../../src/scoring/exped.js";
import { scoreRun } from "../../src/scoring/run-scores.js";

const id = (k: number) => `id${k.toString(16).padStart(8, "0")}`;

/** Expeds over a universe of 12 instruments (an id recurs across expeds), and a file of distinct ids. */
const runCase = fc.record({
  expeds: fc.array(
    fc.record({
      members: fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { minLength: 2, maxLength: 12 }),
      seed: fc.integer({ min: 1, max: 1000 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  file: fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 30, size: "max" }),
});

describe("scoreRun", () => {
  it("gives each exped the terms of scoring the whole file against it, and counts the rows matched over all expeds", () => {
    fc.assert(
      fc.property(runCase, ({ expeds, file }) => {
        const truths = expeds.map(({ members, seed }) =>
          prepareExped({
            ids: members.map(id),
            target: Float64Array.from(members, (m) => ((m * seed) % 5) / 4),
            benchmark: Float64Array.from(members, (m) => ((m + seed) % 7) / 6),
            core: [Float64Array.from(members, (m) => ((m * 3 + seed) % 11) / 10)],
          }),
        );
        const ids = file.map(id);
        const values = Float64Array.from(file, (f, i) => ((f * 7 + i) % 13) / 12);
        const whole = truths.flatMap((truth) => {
          const overlap = ids.filter((x) => truth.ids.original.includes(x)).length;
          return overlap === 0 ? [] : [{ overlap, terms: scoreAgainst(truth, ids, values) }];
        });
        const got = scoreRun(ids, values, truths);
        expect(got.matched).toBe(whole.reduce((n, w) => n + w.overlap, 0));
        expect(got.terms).toEqual(whole.map((w) => w.terms));
      }),
      { numRuns: 200 },
    );
  });
});
