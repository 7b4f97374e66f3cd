import type { PlannedCell } from "./cells.js";

/**
 * The order the pools hand cells out: each group of cells built on one world (the same scenario
 * file, seed and dataset fields; scoring settings and strategies do not change the world) together,
 * the groups in the order of their first cell, the sweep's order kept within a group. A worker
 * keeps only its last few worlds (run-cell.ts): in the sweep's own order, seeds innermost, a sweep
 * of more seeds than that would rebuild its world for every cell. Only when a cell runs changes;
 * its index, and so its place in the store and the report, does not.
 */
export function inWorldOrder(cells: PlannedCell[]): PlannedCell[] {
  const groups = new Map<string, PlannedCell[]>();
  for (const c of cells) {
    const key = JSON.stringify([c.cell.scenario, c.cell.seed ?? null, c.cell.dataset ?? null]);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].flat();
}
