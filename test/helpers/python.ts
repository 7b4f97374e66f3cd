import { findPython } from "../../src/data/python-interpreter.js";

/** The interpreter the runner uses (findPython's), for tests under `requires("python")` that run Python themselves. */
export async function pythonPath(): Promise<string> {
  const python = await findPython();
  if (!python.ok) throw new Error(python.error);
  return python.path;
}
