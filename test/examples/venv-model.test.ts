import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect } from "vitest";
import { selectColumns } from "../../src/domain/frame.js";
import { runPredict } from "../../src/participant/run-predict.js";
import { eventHarness } from "../helpers/event-harness.js";
import { usingInterpreter } from "../helpers/python.js";
import { requires } from "../helpers/requires.js";
import { venvIsolation, VENV_PYTHON } from "../helpers/venv.js";

const MAKE_MODEL = fileURLToPath(new URL("../../examples/make_model.py", import.meta.url));
const run = promisify(execFile);

usingInterpreter(VENV_PYTHON);

requires("python", "venv").describe("a model file made in the project venv (pandas 3, numpy 2, cloudpickle 3)", () => {
  requires("python", "venv").it("a model file pickled in the venv loads and predicts in the worker under the venv's Python", async () => {
    const dir = await mkdtemp(join(tmpdir(), "basecamp-venv-model-"));
    try {
      const path = join(dir, "model.pkl");
      await run(VENV_PYTHON as string, [MAKE_MODEL, path], { timeout: 120_000 });
      const { dataset } = eventHarness().world;
      const out = await runPredict({
        isolation: await venvIsolation(),
        pkl: await readFile(path),
        features: selectColumns(dataset.validation, dataset.features),
        benchmark: dataset.benchmarks.validation,
        timeout_seconds: 60,
      });
      if (!out.ok) throw new Error(out.error);
      expect(out.ids).toEqual(dataset.validation.ids);
      expect([...out.values].every((v) => v > 0 && v <= 1)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
