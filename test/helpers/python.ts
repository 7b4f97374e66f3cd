import { afterAll, beforeAll } from "vitest";
import { findPython } from "../../src/data/python-interpreter.js";

/** The interpreter the runner uses (findPython's), for tests under `requires("python")` that run Python themselves. */
export async function pythonPath(): Promise<string> {
  const python = await findPython();
  if (!python.ok) throw new Error(python.error);
  return python.path;
}

/**
 * Sets BASECAMP_PYTHON to `path` for this test file (when given), restoring it after. A test file's
 * module registry is its own, so the interpreter probes run afresh with this setting.
 */
export function usingInterpreter(path: string | null): void {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.BASECAMP_PYTHON;
    if (path !== null) process.env.BASECAMP_PYTHON = path;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.BASECAMP_PYTHON;
    else process.env.BASECAMP_PYTHON = saved;
  });
}
