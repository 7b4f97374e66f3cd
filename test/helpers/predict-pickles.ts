import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { findPython } from "../../src/data/python-interpreter.js";

const MAKER = fileURLToPath(new URL("../fixtures/pickles/make_predict_cases.py", import.meta.url));

/**
 * The predict callables of test/fixtures/pickles/make_predict_cases.py, pickled afresh by the
 * interpreter the runner uses (a cloudpickled function loads only in the Python that saved it).
 * No interpreter with cloudpickle and pandas fails the test with the runner's own message: CI
 * installs one (.ci/run), and nothing here is skipped.
 */
export async function predictPickles(): Promise<(name: string) => Uint8Array> {
  const python = await findPython();
  if (!python.ok) throw new Error(python.error);
  const dir = mkdtempSync(join(tmpdir(), "basecamp-pickles-"));
  execFileSync(python.path, [MAKER, dir], { stdio: "pipe" });
  return (name) => readFileSync(join(dir, `${name}.pkl`));
}
