import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { basecamp, errorLines } from "../helpers/cli.js";

/** An interpreter that runs but lacks every module, so Python is "missing" whatever this machine has. */
const NO_MODULES = { BASECAMP_PYTHON: fileURLToPath(new URL("../fixtures/participant/python-without-modules.sh", import.meta.url)) };
const MISSING = "no Python interpreter can run the model: it needs cloudpickle and pandas";

describe("a command that needs Python, without it", () => {
  it.each([
    [["run", "scenarios/auto-submit-tournament.json"], "auto-submit-tournament needs Python for agents autopilot (auto_submitter), copilot (auto_then_manual)"],
    [["run", "scenarios/compute-event.json"], "compute-event needs Python for agents hal (hosted_trainer), ada (hosted_trainer), gus (hosted_trainer) and hosted compute (event.compute)"],
    [["backtest", "examples/agent.py"], "this backtest needs Python for agent agent (agent.py)"],
    [["serve", "scenarios/auto-submit-tournament.json", "--with-agents", "--port", "0"], "auto-submit-tournament needs Python for agents autopilot"],
  ])("basecamp %j exits 1 before the first step, with one line naming what is missing", async (args, what) => {
    const run = await basecamp(args, NO_MODULES);
    expect(run.status).toBe(1);
    expect(errorLines(run)).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^basecamp: ${what.replace(/[()]/g, "\\$&")}.*: ${MISSING}.*sudo apt-get install python3-pandas python3-numpy python3-cloudpickle\\)\\n$`));
    expect(run.stdout).toBe("");
  });
});
