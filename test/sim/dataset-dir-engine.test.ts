import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWorld } from "../../src/service/kernel/deployment.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario } from "../../sim/engine.js";
import { loadScenario, parseScenario } from "../../sim/scenario.js";
import { DIR_PREFIX, writeDatasetDir, type LiveKind } from "../helpers/dataset-dir.js";
import { harness } from "../helpers/service-harness.js";
import { smallEvent } from "../helpers/small-event.js";

const root = mkdtempSync(join(tmpdir(), "basecamp-dir-engine-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A tournament scenario file beside a dataset directory `data/`, which it names relative to itself. */
function scenarioFile(live: LiveKind, dataset: Record<string, unknown> = {}): string {
  const home = join(root, `${live}-${Object.keys(dataset).join("-")}`);
  mkdirSync(home, { recursive: true });
  writeDatasetDir(join(home, "data"), live);
  const scenario = {
    name: "real-data",
    seed: 5,
    dataset: { dir: "data", ...dataset },
    calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1 },
    agents: [
      { name: "alice", key: "key-alice-0001", strategy: "ridge" },
      { name: "bob", key: "key-bob-00000002", strategy: "benchmark_copier" },
      { name: "carol", key: "key-carol-000003", strategy: "random" },
    ],
  };
  const path = join(home, "scenario.json");
  writeFileSync(path, JSON.stringify(scenario));
  return path;
}

describe("a replay on a dataset directory", () => {
  for (const live of ["scored", "none"] as const) {
    it(`runs built-in agents to the end, twice to the same digest (rounds from ${live === "scored" ? "live" : "validation"})`, async () => {
      const scenario = loadScenario(scenarioFile(live, { core_features: ["feature_icy_ridge", "feature_windy_ridge"] }));
      const a = await runScenario(scenario);
      const b = await runScenario(scenario);
      expect(a.finished).toBe(true);
      expect(b.digest).toBe(a.digest);
      expect(a.board.rounds_settled).toBe(3);
      const rows = new Map(a.board.rows.map((r) => [r.model, r]));
      expect([...rows.keys()].sort()).toEqual(["alice", "bob", "carol"]);
      for (const row of rows.values()) expect(row.rounds_scored).toBe(3);
      expect(rows.get("bob")?.aimc).toBe(0);
      for (const row of rows.values()) expect(Number.isFinite(row.total) && row.corr !== 0).toBe(true);
    });
  }

  it("replays an event on it: each round's live split is expeds_per_round live expeds", async () => {
    const dir = join(root, "event-data");
    writeDatasetDir(dir, "scored");
    const scenario = smallEvent({ dataset: { dir } }, { n_rounds: 2, expeds_per_round: 2 });
    const a = await runScenario(scenario);
    expect(a.finished).toBe(true);
    expect((await runScenario(scenario)).digest).toBe(a.digest);
    expect(a.board.rows.length).toBeGreaterThan(0);
    expect(a.practice?.rows.length).toBeGreaterThan(0);
  });

  it("serves the dataset's target columns in train and names the graded target on the scoring view", async () => {
    const scenario = loadScenario(scenarioFile("scored", { target: "target_aux" }));
    const h = harness(scenario, 0, await loadWorld(deploymentOf(scenario)));
    expect((await h.service.explainScoring()).target).toBe("target_aux");
    const train = await h.service.downloadDataset("key-alice-0001", "train");
    expect(Object.keys(train.columns).filter((c) => c.startsWith("target"))).toEqual(["target", "target_aux"]);
    expect(h.world.dataset.spec.prefix).toBe(DIR_PREFIX);
  });
});

describe("a scenario's dataset directory", () => {
  const raw = (dataset: Record<string, unknown>) => ({
    name: "d",
    seed: 1,
    dataset,
    calendar: { start: "2026-01-05", n_rounds: 2 },
    agents: [{ name: "alice", key: "key-alice-0001", strategy: "ridge" }],
  });

  it("resolves a relative dir against the scenario file's directory, or the cwd for a raw object", () => {
    const path = scenarioFile("none");
    expect(loadScenario(path).dataset.dir).toBe(join(path, "..", "data"));
    expect(parseScenario(raw({ dir: "some/where" })).dataset.dir).toBe(join(process.cwd(), "some/where"));
    expect(parseScenario(raw({ dir: "/abs/data", prefix: "v5" })).dataset).toEqual({ dir: "/abs/data", prefix: "v5" });
  });

  it("refuses generator knobs beside dir, and dir's fields without it, naming the field", () => {
    expect(() => parseScenario(raw({ dir: "d", n_features: 4 }), "s.json")).toThrow(/dataset\.n_features: a dataset read from dir takes no generator knobs/);
    expect(() => parseScenario(raw({ core_features: ["feature_a"] }), "s.json")).toThrow(/dataset\.core_features: only a dataset read from dir takes it/);
  });
});
