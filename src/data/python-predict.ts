import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFrameCsv } from "./csv.js";
import type { Frame } from "./frame.js";
import { findPython } from "./python-interpreter.js";
import { logSafe, runPythonScript } from "./python-process.js";

/** One predict run: the pickled callable and what it is called with. */
export interface PredictRun {
  pkl: Uint8Array;
  /** The live features, passed as a DataFrame indexed by `id` (with the `exped` column). */
  features: Frame;
  /** The live benchmark file, passed as the second argument when the callable takes two. */
  benchmark: Frame;
  /** Wall-clock seconds before the run is stopped. */
  timeout_seconds: number;
}

/** What the callable answered: its column's values by id, in its own row order, exactly as Python held them. */
export type PredictOutcome = { ok: true; column: string; ids: string[]; values: Float64Array } | { ok: false; error: string };

const SCRIPT = fileURLToPath(new URL("./python/run_predict.py", import.meta.url));

/**
 * Runs a cloudpickled predict callable in a child Python process (src/data/python/run_predict.py)
 * over CSV files in a temporary directory, and reads its answer back. Every failure is an outcome
 * with a reason, never a throw: no interpreter, an unpickling error, predict raising, a wrong
 * answer shape, the timeout. Not a sandbox: the caller's own pickle runs as a plain subprocess.
 * CSV in, CSV out with repr() floats: a deterministic callable gives the same bytes every run.
 */
export async function runPredict(run: PredictRun): Promise<PredictOutcome> {
  const python = await findPython();
  if (!python.ok) return { ok: false, error: python.error };
  const dir = await mkdtemp(join(tmpdir(), "basecamp-predict-"));
  const failed = (error: string): PredictOutcome => ({ ok: false, error: logSafe(error, dir) });
  try {
    await writeFile(join(dir, "model.pkl"), run.pkl);
    await writeFile(join(dir, "features.csv"), writeFrameCsv(run.features));
    await writeFile(join(dir, "benchmark.csv"), writeFrameCsv(run.benchmark));
    const crash = await runPythonScript(python.path, [SCRIPT, dir], run.timeout_seconds, "predict");
    if (crash !== null) return failed(crash);
    let result: { ok: boolean; column?: string; error?: string };
    try {
      result = JSON.parse(await readFile(join(dir, "result.json"), "utf8")) as typeof result;
    } catch {
      return failed("predict ended without reporting a result (the process exited early, e.g. through os._exit)");
    }
    if (!result.ok) return failed(result.error ?? "predict failed");
    return { ok: true, column: result.column as string, ...readPredictions(await readFile(join(dir, "predictions.csv"), "utf8")) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}


const NON_FINITE: Record<string, number> = { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, "-inf": Number.NEGATIVE_INFINITY };

/**
 * The script's `id,prediction` file: one line per row, the id as a JSON string (so any id, commas
 * and line breaks included, fits on its line), then a comma and Python's repr() of the value.
 */
export function readPredictions(text: string): { ids: string[]; values: Float64Array } {
  const lines = text.split("\n").slice(1).filter((line) => line !== "");
  const ids: string[] = [];
  const values = new Float64Array(lines.length);
  lines.forEach((line, i) => {
    const comma = line.lastIndexOf(",");
    const raw = line.slice(comma + 1);
    ids.push(JSON.parse(line.slice(0, comma)) as string);
    values[i] = NON_FINITE[raw] ?? Number(raw);
  });
  return { ids, values };
}
