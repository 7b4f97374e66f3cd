import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import type { Cell } from "../../sim/sweep/cells.js";
import { runCell } from "../../sim/sweep/run-cell.js";
import { requires } from "../helpers/requires.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-strategy-faults-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, "tiny.json");
writeFileSync(scenario, JSON.stringify(TINY_SCENARIO));

/** A strategy whose fit or (from its second round) predict raises, as PARAMS["fails"] says; else it predicts its first feature. */
const strategy = join(dir, "faulty.py");
writeFileSync(
  strategy,
  `PARAMS = {"fails": None}
rounds = []


def fit(train):
    if PARAMS["fails"] == "fit":
        raise ValueError("no fit today")


def predict(live, benchmark=None):
    rounds.append(1)
    if PARAMS["fails"] == "predict" and len(rounds) > 1:
        raise RuntimeError("no second round")
    first = next(c for c in live.columns if c.startswith("feature_"))
    return live[first].rank(pct=True)
`,
);

const cell = (fails: string | null): Cell => ({ kind: "backtest", strategy, params: { fails }, against: [], scenario, scenario_name: "tiny.json" });

requires("python").it("fails a cell whose strategy's fit or predict raises, with its reason and Python's traceback, rather than scoring its refusals", async () => {
  const [fit, predict, fine] = [await runCell(cell("fit")), await runCell(cell("predict")), await runCell(cell(null))];
  expect(fit).toMatchObject({ ok: false, reason: expect.stringMatching(/^faulty: fit \(exped \w+\) failed: fit raised ValueError: no fit today$/) });
  expect(predict).toMatchObject({ ok: false, reason: expect.stringMatching(/^faulty: predict \(exped \w+\) failed: predict raised RuntimeError: no second round$/) });
  for (const failed of [fit, predict]) expect(!failed.ok && failed.traceback).toMatch(/faulty\.py", line \d+, in (fit|predict)/);
  expect(fine.ok).toBe(true);
});
