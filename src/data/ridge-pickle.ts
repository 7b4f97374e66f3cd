import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LinearModel } from "./least-squares.js";
import { findPython } from "./python-interpreter.js";
import { logSafe, runPythonScript } from "./python-process.js";
import { processTempDir } from "./temp-roots.js";

const SCRIPT = fileURLToPath(new URL("./python/make_ridge_pickle.py", import.meta.url));
/** Wall-clock seconds the pickling may take. */
const TIMEOUT_SECONDS = 60;

export type RidgePickle = { ok: true; bytes: Uint8Array; python_version: string } | { ok: false; error: string };

/**
 * A trained ridge as a cloudpickled predict callable (src/data/python/make_ridge_pickle.py), ready
 * for an event lane or the auto-submit lane. Never throws: no interpreter, a failing script, a
 * temporary directory that cannot be written, a script that reports nothing, each is an outcome
 * with a reason.
 */
export async function ridgePickle(features: string[], model: LinearModel, fillValue: number): Promise<RidgePickle> {
  const python = await findPython();
  if (!python.ok) return { ok: false, error: python.error };
  let dir: string | null = null;
  try {
    dir = await mkdtemp(join(processTempDir("ridge"), "ridge-"));
    const ridge = { features, coefficients: [...model.coefficients], intercept: model.intercept, fill_value: fillValue };
    await writeFile(join(dir, "ridge.json"), JSON.stringify(ridge));
    const crash = await runPythonScript(python.path, [SCRIPT, dir], TIMEOUT_SECONDS, "ridge pickling");
    if (crash !== null) return { ok: false, error: logSafe(crash, dir) };
    const { python_version } = JSON.parse(await readFile(join(dir, "result.json"), "utf8")) as { python_version: string };
    return { ok: true, bytes: new Uint8Array(await readFile(join(dir, "model.pkl"))), python_version };
  } catch (e) {
    const reason = `pickling the ridge failed: ${(e as Error).message}`;
    return { ok: false, error: dir === null ? reason : logSafe(reason, dir) };
  } finally {
    if (dir !== null) await rm(dir, { recursive: true, force: true });
  }
}
