import { expect } from "vitest";
import { basecamp } from "../helpers/cli.js";
import { requires } from "../helpers/requires.js";

requires("python").it("backtest names its interpreter in one line on stderr first: --python chooses it, --no-sandbox says so; stdout keeps only the report", async () => {
  const run = await basecamp(["backtest", "examples/agent.py", "--no-sandbox", "--python", "/usr/bin/python3", "--json"], { BASECAMP_PYTHON: "/nonexistent/python3" });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr.split("\n")[0]).toMatch(/^basecamp: python: \/usr\/bin\/python3 \(Python 3\.\d+\.\d+; pandas [\d.]+, numpy [\d.]+, cloudpickle [\d.]+(, lightgbm [\d.]+)?\) not sandboxed: --no-sandbox$/);
  expect(JSON.parse(run.stdout)).toMatchObject({ strategy: "agent.py" });
}, 180_000);
