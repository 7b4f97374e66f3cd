import { isAbsolute, relative, resolve, sep } from "node:path";
import type { Cell, PlannedCell } from "./cells.js";

/**
 * A plan as its results store knows it: every cell with its paths as the sweep file names them.
 * Cells carry absolute paths (so a cell runs alike from any directory, on any Ray node); the store
 * does not, so a sweep's folder that has been moved or copied (the sweep file, what it names
 * beside it, its store) still resumes. A file is written from `sweepDir`; a built-in scenario by
 * its name (its file is wherever Basecamp is installed).
 */
export function planIdentity(cells: PlannedCell[], sweepDir: string): unknown {
  const from = (path: string): string => relative(sweepDir, path).split(sep).join("/");
  const strategy = (s: string): string => (isAbsolute(s) ? from(s) : s);
  const written = (cell: Cell): Cell => ({
    ...cell,
    ...(cell.strategy !== undefined ? { strategy: strategy(cell.strategy) } : {}),
    against: cell.against.map(strategy),
    scenario: cell.scenario === resolve(sweepDir, cell.scenario_name) ? from(cell.scenario) : `built-in ${cell.scenario_name}`,
    ...(cell.dataset && typeof cell.dataset.dir === "string" ? { dataset: { ...cell.dataset, dir: from(cell.dataset.dir) } } : {}),
  });
  return cells.map((c) => ({ ...c, cell: written(c.cell) }));
}
