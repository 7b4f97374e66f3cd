import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import { inWorldOrder } from "../../sim/sweep/world-order.js";

const cell = (index: number, seed: number, alpha: number, dataset?: Record<string, unknown>): PlannedCell => ({
  index,
  varied: { alpha, seed },
  cell: { kind: "backtest", strategy: "ridge", params: { alpha }, against: [], scenario: "/s.json", scenario_name: "s", seed, ...(dataset ? { dataset } : {}) },
});

describe("the order a sweep's cells are handed out", () => {
  it("groups the cells of one world (seeds innermost in the sweep: 3 alphas × 5 seeds), in the sweep's order within a group", () => {
    const cells = [1, 2, 3].flatMap((alpha, a) => [1, 2, 3, 4, 5].map((seed, s) => cell(a * 5 + s, seed, alpha)));
    expect(inWorldOrder(cells).map((c) => c.index)).toEqual([0, 5, 10, 1, 6, 11, 2, 7, 12, 3, 8, 13, 4, 9, 14]);
  });

  it("tells worlds apart by their dataset fields, and is a permutation that keeps each world's cells in order", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ seed: fc.integer({ min: 1, max: 4 }), rows: fc.constantFrom(undefined, 100, 200) }), { maxLength: 40 }), (specs) => {
        const cells = specs.map((s, i) => cell(i, s.seed, i, s.rows === undefined ? undefined : { rows_per_exped: s.rows }));
        const ordered = inWorldOrder(cells);
        expect([...ordered].sort((a, b) => a.index - b.index)).toEqual(cells);
        const world = (c: PlannedCell) => JSON.stringify([c.cell.seed, c.cell.dataset ?? null]);
        // Each world's cells are one run, in index order.
        const runs = ordered.map(world).filter((w, i, all) => i === 0 || all[i - 1] !== w);
        expect(new Set(runs).size).toBe(runs.length);
        for (const w of new Set(runs)) {
          const indices = ordered.filter((c) => world(c) === w).map((c) => c.index);
          expect(indices).toEqual([...indices].sort((a, b) => a - b));
        }
      }),
    );
  });
});
