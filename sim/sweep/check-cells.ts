import { cellLabel } from "../../src/report/sweep-text.js";
import { checkWorldSize } from "../../src/service/kernel/deployment.js";
import { canonicalJson } from "../../src/store/canonical-json.js";
import { deploymentOf } from "../deployment.js";
import { strategyProblem } from "../scenario.js";
import { jobLine, MAX_JOB_BYTES } from "./cell-lines.js";
import type { PlannedCell } from "./cells.js";
import { cellScenario } from "./run-cell.js";

/**
 * Refuses a sweep whose cells would fail for a mistake in the file itself, before any cell runs:
 * each cell's scenario with its seed, dataset fields and scoring settings laid over it must parse
 * (and a generated dataset be within the generator's bounds),
 * and a backtest's built-in strategies (the one under test, and each it plays against) must exist
 * and take their params (a file strategy's params are checked as it loads), and each cell's JSON
 * must fit the job line a worker reads. Each distinct scenario and strategy is checked once; the
 * first problem names the cell and the values it varies. Without this, one typo fails every cell
 * of a long sweep.
 */
export function checkCells(file: string, cells: PlannedCell[]): void {
  const seen = new Set<string>();
  const once = (what: unknown) => {
    const key = canonicalJson(what);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  for (const { index, cell, varied } of cells) {
    const where = `${file}: ${cellLabel(index, varied)}`;
    const job = Buffer.byteLength(jobLine({ index, cell }));
    if (job > MAX_JOB_BYTES) throw new Error(`${where}: its JSON is ${job} bytes, at most ${MAX_JOB_BYTES} (a value too large to send a worker)`);
    if (once({ scenario: cell.scenario, seed: cell.seed ?? null, dataset: cell.dataset ?? null, scoring: cell.scoring ?? null })) {
      try {
        checkWorldSize(deploymentOf(cellScenario(cell)));
      } catch (e) {
        throw new Error(`${where}: ${(e as Error).message}`);
      }
    }
    if (cell.kind !== "backtest") continue;
    const strategies = [
      { what: "strategy", strategy: cell.strategy, params: cell.params },
      ...cell.against.map((strategy, i) => ({ what: `against[${i}]`, strategy, params: {} })),
    ];
    for (const { what, strategy, params } of strategies) {
      if (strategy === undefined || !once({ strategy, params })) continue;
      const problem = strategyProblem({ strategy, params }, "tournament");
      if (problem?.field === "strategy") throw new Error(`${where}: ${what}: ${problem.message}`);
      if (problem) throw new Error(`${where}: ${what} ${strategy}: params${problem.issues.join("; params")}`);
    }
  }
}
