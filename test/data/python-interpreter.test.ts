import { afterEach, describe, expect, it, vi } from "vitest";

const saved = process.env.BASECAMP_PYTHON;
afterEach(() => {
  if (saved === undefined) delete process.env.BASECAMP_PYTHON;
  else process.env.BASECAMP_PYTHON = saved;
  vi.resetModules();
});

/** The runner's modules afresh, so the interpreter is probed again under the environment set now. */
async function freshRunner() {
  vi.resetModules();
  return import("../../src/participant/run-predict.js");
}

const frame = { ids: ["a"], exped: ["exped_0001"], columns: { feature_a: Float64Array.of(1) } };

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
