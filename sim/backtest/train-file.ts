import { pandasTrainFile, type PandasTrainFile } from "../../src/data/dataset-dir.js";
import { findPython } from "../../src/data/python-interpreter.js";
import { interpreterFacts } from "../../src/participant/interpreter-facts.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import type { Scenario } from "../scenario.js";
import { fitsOnTrain } from "./contenders.js";

/**
 * The train split's file, for the backtest's Python strategies to read in their own workers
 * (pd.read_parquet, as the user's own script does) instead of this process reading it and sending
 * it to them: when every contender that fits on train is a Python strategy file, the interpreter
 * has pyarrow, and the file reads there as it is served (pandasTrainFile). Null otherwise, and for
 * any doubt (a file that cannot be opened is the dataset read's to report).
 */
export async function workerTrainFile(scenario: Scenario, strategies: string[]): Promise<PandasTrainFile | null> {
  const dir = scenario.dataset.dir;
  const fitters = strategies.filter(fitsOnTrain);
  if (dir === undefined || fitters.length === 0 || !fitters.every((s) => strategyFileKind(s) === "python")) return null;
  const python = await findPython();
  if (!python.ok) return null;
  // The interpreter's one probe (the banner's, started early) says whether it has pyarrow.
  const [facts, file] = await Promise.all([interpreterFacts(python.path), pandasTrainFile({ dir }).catch(() => null)]);
  return facts.ok && facts.facts.packages.pyarrow ? file : null;
}
