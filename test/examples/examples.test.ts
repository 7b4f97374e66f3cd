import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";
import { pythonPath } from "../helpers/python.js";
import { requires } from "../helpers/requires.js";
import { VENV_PYTHON } from "../helpers/venv.js";

const EXAMPLES = fileURLToPath(new URL("../../examples", import.meta.url));
const DRIVER = fileURLToPath(new URL("./run_examples.py", import.meta.url));
const run = promisify(execFile);

interface Ran {
  versions: Record<string, string>;
  agent: number[];
  model: number[];
}

/** Each example run by run_examples.py under `python` on a small frame of `dtype` features. */
async function examplesUnder(python: string, dtype: string): Promise<Ran> {
  const { stdout } = await run(python, [DRIVER, EXAMPLES, dtype], { timeout: 120_000 });
  return JSON.parse(stdout) as Ran;
}

const major = (version: string) => Number(version.split(".")[0]);

requires("python", "venv").describe("the examples under the machine's Python (Debian's: pandas 1.5, cloudpickle 2) and the project venv (pandas 3, cloudpickle 3)", () => {
  for (const dtype of ["float64", "int8"]) {
    requires("python", "venv").it(`fit and predict on ${dtype} features read-only as the worker builds them, each giving the same predictions`, async () => {
      const [system, venv] = await Promise.all([examplesUnder(await pythonPath(), dtype), examplesUnder(VENV_PYTHON as string, dtype)]);
      expect(major(venv.versions.pandas)).toBeGreaterThanOrEqual(3);
      expect(major(venv.versions.cloudpickle)).toBeGreaterThanOrEqual(3);
      for (const example of ["agent", "model"] as const) {
        expect(system[example]).toHaveLength(30);
        system[example].forEach((v, i) => expect(venv[example][i]).toBeCloseTo(v, 12));
      }
    });
  }
});
