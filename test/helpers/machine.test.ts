import { describe, expect, it } from "vitest";
import { describeMissing, missingOf, type Machine } from "./machine.js";

const ok = { ok: true } as const;
const no = (reason: string) => ({ ok: false, reason }) as const;

describe("the line naming what a test run lacks", () => {
  it("names each missing need with its reason, and one apt-get line for all of them", () => {
    const machine: Machine = { python: ok, sandbox: no("bwrap: not found"), chromium: no("/usr/bin/chromium is not installed"), venv: ok, ray: ok };
    expect(missingOf(machine, ["python", "sandbox", "chromium"])).toEqual(["sandbox", "chromium"]);
    expect(describeMissing(machine, ["python", "sandbox", "chromium"])).toBe(
      "a bubblewrap sandbox (bwrap: not found); /usr/bin/chromium (/usr/bin/chromium is not installed); install with: sudo apt-get install bubblewrap chromium",
    );
  });

  it("names only what the asking tests need", () => {
    const machine: Machine = { python: no("python3: not found"), sandbox: no("python3: not found"), chromium: ok, venv: ok, ray: ok };
    expect(missingOf(machine, ["chromium"])).toEqual([]);
    expect(describeMissing(machine, ["python"])).toBe(
      "Python with pandas, numpy and cloudpickle (python3: not found); install with: sudo apt-get install python3-pandas python3-numpy python3-cloudpickle",
    );
  });

  it("says how to make a missing project venv", () => {
    const machine: Machine = { python: ok, sandbox: ok, chromium: ok, venv: no("No module named 'lightgbm'"), ray: ok };
    expect(describeMissing(machine, ["python", "venv"])).toBe(
      "the project venv .venv with lightgbm, pyarrow, pandas 3 and cloudpickle 3 (No module named 'lightgbm'); install with: sudo apt-get install python3-venv, " +
        "then make the venv with: /usr/bin/python3 -m venv .venv && .venv/bin/pip install --retries 0 pyarrow lightgbm 'pandas>=3' 'cloudpickle>=3' numpy scikit-learn",
    );
  });

  it("says how to add Ray to the project venv", () => {
    const machine: Machine = { python: ok, sandbox: ok, chromium: ok, venv: ok, ray: no("ModuleNotFoundError: No module named 'ray'") };
    expect(describeMissing(machine, ["python", "ray"])).toBe(
      "Ray in the project venv (the sweep's Ray tests start a head on 127.0.0.1) (ModuleNotFoundError: No module named 'ray'); install with: .venv/bin/pip install --retries 0 ray",
    );
  });
});
