import type { PlannedCell } from "./cells.js";

/**
 * The sweep's cells in groups, one per world they are built on (the same scenario file, seed and
 * dataset fields; scoring settings and strategies do not change the world), the groups in the
 * order of their first cell, the sweep's order kept within a group.
 */
function worldGroups(cells: PlannedCell[]): PlannedCell[][] {
  const groups = new Map<string, PlannedCell[]>();
  for (const c of cells) {
    const key = JSON.stringify([c.cell.scenario, c.cell.seed ?? null, c.cell.dataset ?? null]);
    const group = groups.get(key);
    if (group) group.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()];
}

/**
 * The order the Ray pool hands cells out (Ray then schedules them): each world's cells together
 * (worldGroups). A worker keeps only its last few worlds (kept-worlds.ts): in the sweep's own
 * order, seeds innermost, a sweep of more seeds than that would rebuild its world for every cell.
 * Only when a cell runs changes; its index, and so its place in the store and the report, does not.
 */
export function inWorldOrder(cells: PlannedCell[]): PlannedCell[] {
  return worldGroups(cells).flat();
}

/**
 * The local pool's queue: each worker slot is given one world's cells (worldGroups) until they run
 * out, then a world no slot has begun, and only when every world left is begun, the next cell of
 * the one with the most cells left. Two workers then build each world once where there are worlds
 * enough to go round (2 seeds × 12 parameters: each worker one seed), rather than both building
 * every world in turn; at the end a slot helps with a world begun by another, so no core idles
 * while cells are left.
 */
export class WorldQueue {
  private readonly groups: PlannedCell[][];
  /** The groups before it have been begun: a slot begins them in order. */
  private unbegun = 0;
  private readonly ofSlot = new Map<number, PlannedCell[]>();
  private remaining: number;

  constructor(cells: PlannedCell[]) {
    this.groups = worldGroups(cells);
    this.remaining = cells.length;
  }

  /** Cells not yet handed out. */
  get left(): number {
    return this.remaining;
  }

  /** The next cell for worker slot `slot`, or undefined when none is left. */
  take(slot: number): PlannedCell | undefined {
    let group = this.ofSlot.get(slot);
    if (!group || group.length === 0) {
      group = this.unbegun < this.groups.length ? this.groups[this.unbegun++] : this.largestLeft();
      if (!group) return undefined;
      this.ofSlot.set(slot, group);
    }
    this.remaining--;
    return group.shift();
  }

  /** The world with the most cells left (the first such, on a tie), if any has cells left. */
  private largestLeft(): PlannedCell[] | undefined {
    return this.groups.reduce<PlannedCell[] | undefined>((best, g) => (g.length > (best?.length ?? 0) ? g : best), undefined);
  }
}
