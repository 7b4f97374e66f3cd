import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findModules } from "../../src/data/python-interpreter.js";
import { requires } from "../helpers/requires.js";

/** The variables that choose an interpreter: an activated venv or conda env of the shell running the tests is set aside. */
const CHOICES = ["BASECAMP_PYTHON", "VIRTUAL_ENV", "CONDA_PREFIX"] as const;
const saved = Object.fromEntries(CHOICES.map((k) => [k, process.env[k]]));
beforeEach(() => {
  delete process.env.VIRTUAL_ENV;
  delete process.env.CONDA_PREFIX;
});
afterEach(() => {
  for (const k of CHOICES) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.resetModules();
});

/** The runner's modules afresh, so the interpreter is probed again under the environment set now. */
async function freshRunner() {
  vi.resetModules();
  return import("../../src/participant/run-predict.js");
}

const frame = { ids: ["a"], exped: ["exped_0001"], columns: { feature_a: Float64Array.of(1) } };

describe("the interpreter's order", () => {
  it("takes --python, then BASECAMP_PYTHON, then the activated venv, then the conda env, each alone; else python3 on PATH, then /usr/bin/python3", async () => {
    const { interpreterCandidates } = await import("../../src/data/python-interpreter.js");
    const all = { flag: "/x/python", BASECAMP_PYTHON: "/b/python", VIRTUAL_ENV: "/venv", CONDA_PREFIX: "/conda" };
    expect(interpreterCandidates(all)).toEqual([{ path: "/x/python", source: "--python" }]);
    expect(interpreterCandidates({ ...all, flag: undefined })).toEqual([{ path: "/b/python", source: "BASECAMP_PYTHON" }]);
    expect(interpreterCandidates({ VIRTUAL_ENV: "/venv", CONDA_PREFIX: "/conda" })).toEqual([{ path: "/venv/bin/python", source: "VIRTUAL_ENV" }]);
    expect(interpreterCandidates({ CONDA_PREFIX: "/conda" })).toEqual([{ path: "/conda/bin/python", source: "CONDA_PREFIX" }]);
    expect(interpreterCandidates({ BASECAMP_PYTHON: "" })).toEqual([
      { path: "python3", source: "PATH" },
      { path: "/usr/bin/python3", source: "system" },
    ]);
  });

  it("prints one line: the interpreter, its versions, and whether it is sandboxed", async () => {
    const { bannerLine } = await import("../../src/participant/interpreter-banner.js");
    const facts = { executable: "/v/bin/python", roots: [], python: "3.12.1", packages: { pandas: "3.0.6", numpy: "2.4.6", cloudpickle: "3.1.2", lightgbm: "4.7.0" } };
    expect(bannerLine("/v/bin/python", facts, { ok: true })).toBe(
      "python: /v/bin/python (Python 3.12.1; pandas 3.0.6, numpy 2.4.6, cloudpickle 3.1.2, lightgbm 4.7.0) sandboxed (bubblewrap)",
    );
    const plain = { ...facts, packages: { pandas: "1.5.3", numpy: "1.24.2", cloudpickle: null, lightgbm: null } };
    expect(bannerLine("/usr/bin/python3", plain, { ok: false, reason: "--no-sandbox" })).toBe(
      "python: /usr/bin/python3 (Python 3.12.1; pandas 1.5.3, numpy 1.24.2, no cloudpickle) not sandboxed: --no-sandbox",
    );
  });
});

describe("choosing --python", () => {
  it("again, unchanged, keeps the probe made (a backtest starts it before its modules load); another path probes afresh", async () => {
    vi.resetModules();
    const { choosePython, findPython } = await import("../../src/data/python-interpreter.js");
    choosePython("/usr/bin/python3");
    const probed = findPython();
    choosePython("/usr/bin/python3");
    expect(findPython()).toBe(probed);
    choosePython("/no/such/python");
    expect(findPython()).not.toBe(probed);
    expect(await findPython()).toMatchObject({ ok: false });
    expect(await probed).toMatchObject({ ok: true, path: "/usr/bin/python3", source: "--python" });
  });
});

describe("the named interpreter", () => {
  it("is the one candidate that --python, BASECAMP_PYTHON, a venv or a conda env names, and none where python3 is looked for on PATH", async () => {
    vi.resetModules();
    const { choosePython, namedPython } = await import("../../src/data/python-interpreter.js");
    delete process.env.BASECAMP_PYTHON;
    expect(namedPython()).toBeNull();
    process.env.CONDA_PREFIX = "/opt/conda";
    expect(namedPython()).toBe("/opt/conda/bin/python");
    process.env.VIRTUAL_ENV = "/home/me/.venv";
    expect(namedPython()).toBe("/home/me/.venv/bin/python");
    process.env.BASECAMP_PYTHON = "/opt/py/bin/python3";
    expect(namedPython()).toBe("/opt/py/bin/python3");
    choosePython("/usr/bin/python3");
    expect(namedPython()).toBe("/usr/bin/python3");
  });
});

describe("the predict runner's interpreter", () => {
  it("fails a run with a message naming what is missing when no interpreter fits", async () => {
    process.env.BASECAMP_PYTHON = "/nonexistent/python3";
    const { runPredict } = await freshRunner();
    const out = await runPredict({ pkl: new Uint8Array(1), features: frame, benchmark: frame, timeout_seconds: 5, isolation: "trusted" });
    expect(out).toEqual({
      ok: false,
      error:
        "no Python interpreter can run the model: it needs cloudpickle and pandas (/nonexistent/python3: not found); " +
        "it was chosen by BASECAMP_PYTHON; choose another with --python or BASECAMP_PYTHON",
    });
  });

  it("names an interpreter that lacks a module, and finds one by itself when BASECAMP_PYTHON is unset", async () => {
    process.env.BASECAMP_PYTHON = process.execPath; // node: not a Python at all
    const { findPython } = await import("../../src/data/python-interpreter.js");
    const refused = await findPython();
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining(`(${process.execPath}: `) });
    delete process.env.BASECAMP_PYTHON;
    vi.resetModules();
    const { findPython: probeAgain } = await import("../../src/data/python-interpreter.js");
    expect(await probeAgain()).toMatchObject({ ok: true, path: expect.stringMatching(/python3$/) });
  });
});

requires("python").describe("the probe for the modules a predict needs", () => {
  it("names the first module the interpreter cannot find, as importing it would, and finds the others without importing them", () => {
    const dir = mkdtempSync(join(tmpdir(), "basecamp-find-modules-"));
    try {
      writeFileSync(join(dir, "slow_to_import.py"), "raise SystemExit('imported')\n");
      const run = (modules: string[]) => spawnSync("/usr/bin/python3", ["-c", findModules(modules)], { encoding: "utf8", env: { PATH: process.env.PATH, PYTHONPATH: dir } });
      expect(run(["json", "slow_to_import"]).status).toBe(0);
      const missing = run(["json", "no_such_module_here", "neither_this"]);
      expect(missing.status).toBe(1);
      expect(missing.stderr.trim().split("\n").pop()).toBe("ModuleNotFoundError: No module named 'no_such_module_here'");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
