import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadLineup } from "../../sim/agents/lineup.js";
import type { WalkAhead } from "../../sim/agents/python-strategy.js";
import { PREDICTS_AHEAD } from "../../src/participant/python-worker.js";
import { contenders, walkScenario } from "../../sim/backtest/contenders.js";
import { walk } from "../../sim/backtest/walk.js";
import { walkAhead, walkWorld } from "../../sim/backtest/walk-world.js";
import { deploymentOf } from "../../sim/deployment.js";
import { loadWorld } from "../../src/service/kernel/deployment.js";
import { requires } from "../helpers/requires.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-walk-ahead-"));
/** Prints each predict's exped, and answers with a call count in its values: a call out of order, or one more, changes what it submits. */
const STRATEGY = `
calls = [0]

def predict(live, benchmark=None):
    calls[0] += 1
    print("predict", live["exped"].iloc[0], flush=True)
    return live.iloc[:, 1].rank(pct=True) * 0.5 + 0.01 * (calls[0] % 7)
`;

/** The backtest's walk of a Python strategy, with or without asking each next predict ahead; what it submitted, its digest and its log. */
async function walked(name: string, ahead: boolean) {
  const strategy = join(dir, "counting.py");
  writeFileSync(strategy, STRATEGY);
  const base = smallScenario({ dataset: { n_features: 6, n_core: 2, train_expeds: 6, validation_expeds: 5, rows_per_exped: 30, gap_expeds: 2, universe_size: 20 } });
  const agents = contenders(strategy, {}, []);
  const world = await loadWorld(deploymentOf(base));
  const w = walkWorld(world);
  const scenario = walkScenario(base, w.calendar, agents);
  /** The rounds asked ahead for, by index (from 1), and how far ahead of the asking round each was. */
  const asked: number[] = [];
  const steps: number[] = [];
  const next = walkAhead(w.dataset.rounds);
  const spy: WalkAhead = (slot, step) => {
    const round = next(slot, step);
    if (round) asked.push(slot.index + step);
    steps.push(step);
    return round;
  };
  const logDir = join(dir, name);
  mkdirSync(logDir);
  const lineup = await loadLineup(scenario, { isolation: "trusted", logDir, ...(ahead ? { ahead: spy } : {}) });
  try {
    const result = await walk(scenario, { deployment: deploymentOf(scenario), dataset: w.dataset, schedule: w.schedule }, lineup);
    const own = [...(result.entries.get(agents[0].name) ?? new Map()).values()].map((e) => [...e.values]);
    const log = readFileSync(join(logDir, `${agents[0].name}.log`), "utf8").split("\n").filter((l) => l.startsWith("predict"));
    return { digest: result.digest, own, log, asked, steps, expeds: w.dataset.rounds.map((r) => r.exped) };
  } finally {
    await lineup.close();
  }
}

requires("python").describe("the walk asks its next rounds' predicts ahead", () => {
  it("predict is called once per round, in round order, on the same frames: the same submissions and event log as asking each in its round", async () => {
    const plain = await walked("plain", false);
    const ahead = await walked("ahead", true);
    expect(plain.own).toHaveLength(plain.expeds.length);
    expect(ahead.log).toEqual(plain.expeds.map((exped) => `predict ${exped}`));
    expect(plain.log).toEqual(ahead.log);
    expect(ahead.own).toEqual(plain.own);
    expect(ahead.digest).toBe(plain.digest);
    // Every round after the first asked ahead once, in order, never more than PREDICTS_AHEAD rounds before it opens.
    expect(ahead.asked).toEqual(plain.expeds.slice(1).map((_, i) => i + 2));
    expect(Math.max(...ahead.steps)).toBe(PREDICTS_AHEAD);
  });
});
