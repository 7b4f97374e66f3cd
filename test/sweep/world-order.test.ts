import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import { inWorldOrder, WorldQueue } from "../../sim/sweep/world-order.js";

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

/** Takes every cell from `queue`, slots in turn (each finishing a cell before its next), the slot each went to by index. */
function drained(queue: WorldQueue, slots: number): Map<number, number> {
  const slotOf = new Map<number, number>();
  for (let turn = 0; queue.left > 0; turn++) {
    const slot = turn % slots;
    const c = queue.take(slot);
    if (c) slotOf.set(c.index, slot);
  }
  return slotOf;
}

describe("the local pool's queue", () => {
  it("gives each of two workers a seed of its own (12 alphas × 2 seeds): each world is built once, not once per worker", () => {
    const cells = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].flatMap((alpha, a) => [1, 2].map((seed, s) => cell(a * 2 + s, seed, alpha)));
    const slotOf = drained(new WorldQueue(cells), 2);
    for (const c of cells) expect(slotOf.get(c.index), `cell ${c.index}`).toBe(c.cell.seed === 1 ? 0 : 1);
  });

  it("gives a slot whose world is done a world no slot has begun, then helps the begun world with the most cells left", () => {
    // Worlds of 2, 6 and 3 cells; slot 0 takes seed 1's 2 cells, then the untouched seed 3; slot 1
    // seed 2. Once seed 3 is done too, slot 0 helps with what is left of seed 2.
    const cells = [...[0, 1].map((i) => cell(i, 1, i)), ...[2, 3, 4, 5, 6, 7].map((i) => cell(i, 2, i)), ...[8, 9, 10].map((i) => cell(i, 3, i))];
    const queue = new WorldQueue(cells);
    const taken = (slot: number) => queue.take(slot)?.index;
    expect([taken(0), taken(1), taken(0), taken(1), taken(0), taken(1), taken(0), taken(1), taken(0), taken(1), taken(0), taken(1)]).toEqual([0, 2, 1, 3, 8, 4, 9, 5, 10, 6, 7, undefined]);
    expect(queue.left).toBe(0);
  });

  it("hands out every cell once, each world's cells in the sweep's order, whatever the slots' turns", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 200 }), (seeds, turns) => {
        const cells = seeds.map((seed, i) => cell(i, seed, i));
        const queue = new WorldQueue(cells);
        const handed: PlannedCell[] = [];
        for (let t = 0; queue.left > 0; t++) handed.push(queue.take(turns[t % turns.length]) as PlannedCell);
        expect([...handed].sort((a, b) => a.index - b.index)).toEqual(cells);
        for (const seed of new Set(seeds)) {
          const indices = handed.filter((c) => c.cell.seed === seed).map((c) => c.index);
          expect(indices).toEqual([...indices].sort((a, b) => a - b));
        }
        expect(queue.take(0)).toBeUndefined();
      }),
    );
  });
});
