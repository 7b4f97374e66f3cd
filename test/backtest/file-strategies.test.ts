import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { runScenario, type EngineEvent } from "../../sim/engine.js";
import { loadScenario } from "../../sim/scenario.js";
import { smallScenario } from "../helpers/small-scenario.js";

const fixtures = resolve("test/fixtures/strategies");

/**
 * A scenario file in a directory of its own, naming its strategies by paths relative to it: a
 * built-in, a Python file, a pickle made by examples/make_model.py, a TypeScript module, and a
 * Python agent for each way a strategy's code can misbehave.
 */
function mixedScenario(): string {
  const dir = mkdtempSync(join(tmpdir(), "basecamp-mixed-"));
  copyFileSync(join(fixtures, "mean_rank.py"), join(dir, "mean_rank.py"));
  copyFileSync(join(fixtures, "misbehaving.py"), join(dir, "misbehaving.py"));
  copyFileSync(resolve("examples/strategy.ts"), join(dir, "strategy.ts"));
  execFileSync("/usr/bin/python3", [resolve("examples/make_model.py"), join(dir, "model.pkl")]);
  const base = smallScenario();
  const agent = (name: string, strategy: string, params: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    name,
    key: `key-${name}-000000`,
    strategy,
    params,
    ...extra,
  });
  const scenario = {
    name: "mixed",
    seed: base.seed,
    dataset: base.dataset,
    calendar: base.calendar,
    agents: [
      agent("ridge", "ridge"),
      agent("python", "mean_rank.py", { flip: false }),
      agent("pickle", "model.pkl"),
      agent("typescript", "strategy.ts", { flip: true }),
      agent("raises", "misbehaving.py", { mode: "raise" }),
      agent("hangs", "misbehaving.py", { mode: "hang" }, { predict_timeout_seconds: 1 }),
      agent("nan", "misbehaving.py", { mode: "nan" }),
      agent("range", "misbehaving.py", { mode: "range" }),
      agent("ids", "misbehaving.py", { mode: "ids" }),
      agent("text", "misbehaving.py", { mode: "text" }),
    ],
  };
  const file = join(dir, "mixed.json");
  writeFileSync(file, JSON.stringify(scenario, null, 2));
  // Copying this file elsewhere must not matter: the module imports Basecamp by absolute path.
  writeFileSync(join(dir, "strategy.ts"), `export { default } from ${JSON.stringify(resolve("examples/strategy.ts"))};\n`);
  return file;
}

requires("python").describe("a scenario mixing built-in, Python, pickle and TypeScript agents", () => {
  it("replays to the same digest twice; a misbehaving Python agent misses its rounds with the reason while the replay completes", async () => {
    const file = mixedScenario();
    const missed: Extract<EngineEvent, { kind: "missed" }>[] = [];
    const first = await runScenario(loadScenario(file), { onEvent: (e) => e.kind === "missed" && missed.push(e) });
    const second = await runScenario(loadScenario(file));
    expect(first.finished).toBe(true);
    expect(second.digest).toBe(first.digest);

    const scored = new Map(first.board.rows.map((r) => [r.model, r.rounds_scored]));
    for (const good of ["ridge", "python", "pickle", "typescript"]) expect(scored.get(good)).toBe(3);
    for (const bad of ["raises", "hangs", "nan", "range", "ids", "text"]) expect(scored.get(bad) ?? 0).toBe(0);

    const reasons = (agent: string) => [...new Set(missed.filter((m) => m.agent === agent).map((m) => m.reason))];
    expect(reasons("raises")).toEqual(["failed: predict raised ValueError: no model for this round"]);
    expect(reasons("hangs")).toEqual(["failed: predict did not finish within 1 s and was stopped"]);
    expect(reasons("nan")).toEqual(["refused 422 prediction_not_finite: prediction must be a finite number (no NaN or Infinity)"]);
    expect(reasons("range")[0]).toMatch(/^refused 422 \w+: Target '.*': prediction 2 is outside the allowed range \[0, 1\]\.$/);
    expect(reasons("ids")[0]).toMatch(/^refused 400 \w+: Submission contains 1 instrument_id values not in the current round\.$/);
    expect(reasons("text")[0]).toMatch(/^failed: predict returned builtins\.str/);
    for (const bad of ["raises", "hangs", "nan", "range", "ids", "text"]) expect(missed.filter((m) => m.agent === bad)).toHaveLength(3);
  });

  it("fails at load, naming the agent, for a missing file or a parameter the Python file does not define", async () => {
    const file = mixedScenario();
    const scenario = loadScenario(file);
    const missing = { ...scenario, agents: [{ ...scenario.agents[1], strategy: join(fixtures, "no-such.py") }] };
    await expect(runScenario(missing)).rejects.toThrow(/^agents\[0\]\.strategy: .*no-such\.py/);
    const badParam = { ...scenario, agents: [{ ...scenario.agents[1], params: { flop: true } }] };
    await expect(runScenario(badParam)).rejects.toThrow(/^agents\[0\]\.strategy: .*flop/);
  });
});
