import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pythonPath } from "./python.js";

const MAKER = fileURLToPath(new URL("../fixtures/pickles/make_predict_cases.py", import.meta.url));

/**
 * The predict callables of test/fixtures/pickles/make_predict_cases.py, pickled afresh by the
 * interpreter the runner uses (a cloudpickled function loads only in the Python that saved it).
 * Made once per test file; for tests under `requires("python")`.
 */
export function predictPickles(): Promise<(name: string) => Uint8Array> {
  made ??= make();
  return made;
}

let made: Promise<(name: string) => Uint8Array> | null = null;

async function make(): Promise<(name: string) => Uint8Array> {
  const python = await pythonPath();
  const dir = mkdtempSync(join(tmpdir(), "basecamp-pickles-"));
  execFileSync(python, [MAKER, dir], { stdio: "pipe" });
  return (name) => readFileSync(join(dir, `${name}.pkl`));
}
