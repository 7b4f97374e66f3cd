import { resolve } from "node:path";
import type { Cell, PlannedCell } from "./cells.js";
import { datasetFields, scenarioPath, strategyPath } from "./named-files.js";
import type { Sweep } from "./sweep-file.js";

/**
 * A plan as its results store knows it: every cell with its paths as the sweep file wrote them (a
 * relative path relative, an absolute one absolute, a built-in scenario by its name). Cells carry
 * absolute paths (so a cell runs alike from any directory, on any Ray node); the store does not,
 * so a sweep's folder that has been moved or copied (the sweep file, what it names beside it, its
 * store) still resumes, while a path the file gave as absolute (`/shared/data`) stays that path.
 */
export function planIdentity(cells: PlannedCell[], sweep: Sweep): unknown {
  const written = writtenPaths(sweep);
  const as = (path: string): string => written.get(path) ?? path;
  const cellAsWritten = (cell: Cell): Cell => ({
    ...cell,
    ...(cell.strategy !== undefined ? { strategy: as(cell.strategy) } : {}),
    against: cell.against.map(as),
    scenario: as(cell.scenario),
    ...(cell.dataset && typeof cell.dataset.dir === "string" ? { dataset: { ...cell.dataset, dir: as(cell.dataset.dir) } } : {}),
  });
  return cells.map((c) => ({ ...c, cell: cellAsWritten(c.cell) }));
}

/** Each path a cell may carry, resolved by planCells's own functions (named-files.ts), to what the sweep file wrote (a built-in strategy's name, to itself). */
function writtenPaths({ base, axes, dir }: Sweep): Map<string, string> {
  const written = new Map<string, string>();
  for (const s of [...(base.strategy === undefined ? [] : [base.strategy]), ...base.against, ...(axes.strategies ?? [])]) written.set(strategyPath(s, dir), s);
  for (const s of [base.scenario, ...(axes.scenarios ?? [])]) {
    const path = scenarioPath(s, dir);
    written.set(path, path === resolve(dir, s) ? s : `built-in ${s}`);
  }
  for (const d of [base.dataset, ...(axes.datasets ?? [])]) {
    if (typeof d?.dir === "string") written.set(datasetFields(d, dir).dir as string, d.dir);
  }
  return written;
}
