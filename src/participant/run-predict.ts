import type { Frame } from "../domain/frame.js";
import type { Isolation } from "./isolation.js";
import { startPythonWorker, type Outcome } from "./python-worker.js";

/** One predict run: the pickled callable and what it is called with. */
export interface PredictRun {
  pkl: Uint8Array;
  /** The live features, passed as a DataFrame indexed by `id` (with the `exped` column). */
  features: Frame;
  /** The live benchmark file, passed as the second argument when the callable takes two. */
  benchmark: Frame;
  /** CPU seconds for loading the file, and again for its predict, before the run is stopped (call-limit.ts). */
  timeout_seconds: number;
  isolation: Isolation;
}

/** What the callable answered: its column's values by id, in its own row order, exactly as Python held them. */
export type PredictOutcome = Outcome<{ column: string; ids: string[]; values: Float64Array }>;

/**
 * Runs a cloudpickled predict callable once (the model-file contract: a DataFrame with one numeric
 * column) in a worker that is started for it and closed after it. Every failure is an outcome
 * with a reason, never a throw.
 */
export async function runPredict(run: PredictRun): Promise<PredictOutcome> {
  const started = await startPythonWorker({
    source: { kind: "pickle", bytes: run.pkl },
    isolation: run.isolation,
    label: "model.pkl",
    loadTimeoutSeconds: run.timeout_seconds,
  });
  if (!started.ok) return started;
  try {
    return await started.worker.predict(run.features, run.benchmark, run.timeout_seconds);
  } finally {
    await started.worker.close();
  }
}
