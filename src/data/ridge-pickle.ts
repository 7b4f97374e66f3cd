import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LinearModel } from "./least-squares.js";
import { findPython } from "./python-interpreter.js";

const SCRIPT = fileURLToPath(new URL("./python/make_ridge_pickle.py", import.meta.url));
/** Wall-clock seconds the pickling may take. */
const TIMEOUT_SECONDS = 60;

export type RidgePickle = { ok: true; bytes: Uint8Array; python_version: string } | { ok: false; error: string };

/**
 * A trained ridge as a cloudpickled predict callable (src/data/python/make_ridge_pickle.py), ready
 * for an event lane or the auto-submit lane. Never throws: no interpreter, or a failing script, is
 * an outcome with a reason.
 */
export async function ridgePickle(features: string[], model: LinearModel, fillValue: number): Promise<RidgePickle> {
  const python = await findPython();
  if (!python.ok) return { ok: false, error: python.error };
  const dir = await mkdtemp(join(tmpdir(), "basecamp-ridge-"));
  try {
    const ridge = { features, coefficients: [...model.coefficients], intercept: model.intercept, fill_value: fillValue };
    await writeFile(join(dir, "ridge.json"), JSON.stringify(ridge));
    const crash = await run(python.path, dir);
    if (crash !== null) return { ok: false, error: crash };
    const { python_version } = JSON.parse(await readFile(join(dir, "result.json"), "utf8")) as { python_version: string };
    return { ok: true, bytes: new Uint8Array(await readFile(join(dir, "model.pkl"))), python_version };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function run(python: string, dir: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(python, [SCRIPT, dir], { timeout: TIMEOUT_SECONDS * 1000, env: { ...process.env, PYTHONHASHSEED: "0" } }, (error, _stdout, stderr) => {
      if (!error) return resolve(null);
      const last = stderr.trim().split("\n").pop();
      resolve(`pickling the ridge failed: ${last || error.message}`);
    });
  });
}
