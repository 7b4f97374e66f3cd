import { describe, expect, it } from "vitest";
import { describeMissing, missingOf, type Machine } from "./machine.js";

const ok = { ok: true } as const;
const no = (reason: string) => ({ ok: false, reason }) as const;

describe("the line naming what a test run lacks", () => {
  it("names each missing need with its reason, and one apt-get line for all of them", () => {
    const machine: Machine = { python: ok, sandbox: no("bwrap: not found"), chromium: no("/usr/bin/chromium is not installed"), venv: ok, ray: ok, training: ok, scipy: ok };
    expect(missingOf(machine, ["python", "sandbox", "chromium"])).toEqual(["sandbox", "chromium"]);
    expect(describeMissing(machine, ["python", "sandbox", "chromium"])).toBe(
      "a bubblewrap sandbox (bwrap: not found); /usr/bin/chromium (/usr/bin/chromium is not installed); install with: sudo apt-get install bubblewrap chromium",
    );
  });

  it("names only what the asking tests need", () => {
    const machine: Machine = { python: no("python3: not found"), sandbox: no("python3: not found"), chromium: ok, venv: ok, ray: ok, training: ok, scipy: ok };
    expect(missingOf(machine, ["chromium"])).toEqual([]);
    expect(describeMissing(machine, ["python"])).toBe(
      "Python with pandas, numpy and cloudpickle (python3: not found); install with: sudo apt-get install python3-pandas python3-numpy python3-cloudpickle",
    );
  });

  it("says how to make a missing project venv", () => {
    const machine: Machine = { python: ok, sandbox: ok, chromium: ok, venv: no("No module named 'lightgbm'"), ray: ok, training: ok, scipy: ok };
    expect(describeMissing(machine, ["python", "venv"])).toBe(
      "the project venv .venv with lightgbm, pyarrow, pandas 3 and cloudpickle 3 (No module named 'lightgbm'); install with: sudo apt-get install python3-venv, " +
        "then make the venv with: /usr/bin/python3 -m venv .venv && .venv/bin/pip install --retries 0 pyarrow lightgbm 'pandas>=3' 'cloudpickle>=3' numpy scikit-learn",
    );
  });

  it("says how to add Ray to the project venv", () => {
    const machine: Machine = { python: ok, sandbox: ok, chromium: ok, venv: ok, ray: no("ModuleNotFoundError: No module named 'ray'"), training: ok, scipy: ok };
    expect(describeMissing(machine, ["python", "ray"])).toBe(
      "Ray in the project venv (the sweep's Ray tests start a head on 127.0.0.1) (ModuleNotFoundError: No module named 'ray'); install with: .venv/bin/pip install --retries 0 ray",
    );
  });

  it("names the training modules and scipy with their packages, and the training modules only once there is a Python to lack them", () => {
    const training = no("ModuleNotFoundError: No module named 'xgboost'");
    const machine: Machine = { python: ok, sandbox: ok, chromium: ok, venv: ok, ray: ok, training, scipy: no("ModuleNotFoundError: No module named 'scipy'") };
    expect(describeMissing(machine, ["python", "training", "scipy"])).toBe(
      "scikit-learn and xgboost in the Python that runs participants' code (hosted training of random_forest, mlp, xgboost and custom) (ModuleNotFoundError: No module named 'xgboost'); " +
        "scipy in Debian's python3 (the backtest diagnostics' numpy reference) (ModuleNotFoundError: No module named 'scipy'); " +
        "install with: sudo apt-get install python3-sklearn python3-xgboost python3-scipy",
    );
    const none = { ...machine, python: no("python3: not found"), training: no("python3: not found") };
    expect(describeMissing(none, ["python", "training"])).toBe(
      "Python with pandas, numpy and cloudpickle (python3: not found); install with: sudo apt-get install python3-pandas python3-numpy python3-cloudpickle",
    );
  });
});
