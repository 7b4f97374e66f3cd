/**
 * The synthetic dataset (`npm run bench -- generate`): the default spec's dataset for 12 rounds
 * (120 train and 30 validation expeds of 200 rows, 24 features, the benchmark fitted), as every
 * generated world builds it (`basecamp run`, `backtest`, each sweep-worker's first cell of a seed):
 * the first build in the process (cold) and the median of the next ones (warm).
 */
import { Rng } from "../../src/domain/rng.js";
import { generateDataset } from "../../src/data/generate.js";
import { defaultDatasetSpec } from "../../src/data/schema.js";
import { medianMs, peakRssMb, report } from "./measure.js";

const RUNS = 15;

export async function run(): Promise<void> {
  const build = () => generateDataset(defaultDatasetSpec, new Rng(20260105).fork("dataset"), 12);
  const start = performance.now();
  build();
  const cold = performance.now() - start;
  const warm = await medianMs(RUNS, build);
  report("Synthetic dataset: the default spec, 12 rounds", {
    cold: `${cold.toFixed(1)} ms (the first build in the process)`,
    warm: `${warm.median.toFixed(1)} ms median of ${RUNS}`,
    "peak RSS": `${peakRssMb().toFixed(0)} MB`,
  });
}
