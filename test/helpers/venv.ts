import { spawnSync } from "node:child_process";
import { inject } from "vitest";
import { probeSandbox, type Isolation } from "../../src/participant/isolation.js";
import { sandboxPython } from "../../src/participant/sandbox-python.js";
import { VENV_PATH } from "./machine.js";

/**
 * The project venv's interpreter (`<repo>/.venv/bin/python`, made by .ci/run: lightgbm, pyarrow,
 * pandas 3, cloudpickle 3, numpy 2, scikit-learn), or null where it is missing or lacks any of
 * them. Tests that use it run under `requires("venv")`: skipped with one line naming what is
 * missing and how to make it, or failing under CI.
 */
export const VENV_PYTHON: string | null = inject("machine").venv.ok ? VENV_PATH : null;

/**
 * How a test runs code under the venv's Python (BASECAMP_PYTHON set to VENV_PYTHON): in the sandbox
 * where the sandbox runs the venv's interpreter (one that imports lightgbm, which Debian does not
 * package), else trusted, where the sandbox would swap the venv's Python for /usr/bin/python3.
 */
export async function venvIsolation(): Promise<Isolation> {
  if (!(await probeSandbox()).ok) return "trusted";
  const python = await sandboxPython();
  return python.ok && spawnSync(python.path, ["-c", "import lightgbm"], { stdio: "ignore" }).status === 0 ? "sandbox" : "trusted";
}
