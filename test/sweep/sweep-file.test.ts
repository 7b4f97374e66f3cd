import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planCells } from "../../sim/sweep/cells.js";
import { runCell } from "../../sim/sweep/run-cell.js";
import { parseSweep } from "../../sim/sweep/sweep-file.js";
import { writeDatasetDir } from "../helpers/dataset-dir.js";

const sweep = (raw: unknown) => parseSweep(raw, "s.json", "/work/sweeps");

describe("sweep file", () => {
  it("names the bad field", () => {
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { alpha: [] } } })).toThrow(/s\.json is not a valid sweep: axes\.params\.alpha: /);
    expect(() => sweep({ base: { scenario: "default-tournament" } })).toThrow(/base\.strategy: a backtest sweep needs a strategy/);
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { alpha: { min: 1, max: 2 } } } })).toThrow(/axes\.params\.alpha: a range needs "sample"/);
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { a: { min: 0, max: 1, log: true } } }, sample: { n: 1, seed: 1 } })).toThrow(/axes\.params\.a\.min: a log range needs min > 0/);
    expect(() => sweep({ kind: "replay", base: { strategy: "ridge" } })).toThrow(/base\.strategy: a replay sweep plays the scenario's own agents/);
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { scoring: [{ clip: -1 }] } })).toThrow(/axes\.scoring\.0\.clip: /);
    expect(() => sweep({ base: { strategy: "ridge" }, extra: 1 })).toThrow(/\(top level\): .*extra/);
  });

  it("crosses the axes into a grid, seeds innermost; paths are made absolute against the sweep's directory", () => {
    const cells = planCells(sweep({ base: { strategy: "agent.py", params: { beta: 1 } }, axes: { strategies: ["agent.py", "ridge"], params: { alpha: [1, 10] }, seeds: [5, 6] } }));
    expect(cells).toHaveLength(8);
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(cells[0].varied).toEqual({ strategy: "agent.py", alpha: 1, seed: 5 });
    expect(cells[1].varied).toEqual({ strategy: "agent.py", alpha: 1, seed: 6 });
    expect(cells[7].varied).toEqual({ strategy: "ridge", alpha: 10, seed: 6 });
    expect(cells[0].cell).toMatchObject({ kind: "backtest", strategy: "/work/sweeps/agent.py", params: { beta: 1, alpha: 1 }, seed: 5, scenario_name: "default-tournament" });
    expect(cells[7].cell.strategy).toBe("ridge");
  });

  it("refuses a grid of more than 100,000 cells, naming the axes", () => {
    const values = Array.from({ length: 400 }, (_, i) => i);
    expect(() => planCells(sweep({ base: { strategy: "ridge" }, axes: { params: { a: values, b: values } } }))).toThrow(/the sweep's axes make 160000 cells \(a 400 × b 400\); at most 100000/);
  });

  it("draws seeded samples: the same seed gives the same cells, ranges stay within their bounds", () => {
    const raw = { base: { strategy: "ridge" }, axes: { params: { lambda: { min: 0.1, max: 1000, log: true }, k: { min: 1, max: 5, int: true }, mode: ["a", "b"] }, seeds: { from: 1, count: 3 } }, sample: { n: 50, seed: 9 } };
    const a = planCells(sweep(raw));
    expect(a).toHaveLength(50);
    expect(JSON.stringify(planCells(sweep(raw)))).toBe(JSON.stringify(a));
    expect(JSON.stringify(planCells(sweep({ ...raw, sample: { n: 50, seed: 10 } })))).not.toBe(JSON.stringify(a));
    for (const { cell } of a) {
      expect(cell.params.lambda as number).toBeGreaterThanOrEqual(0.1);
      expect(cell.params.lambda as number).toBeLessThanOrEqual(1000);
      expect([1, 2, 3, 4]).toContain(cell.params.k);
      expect(["a", "b"]).toContain(cell.params.mode);
      expect([1, 2, 3]).toContain(cell.seed);
    }
  });
});

describe("a sweep on a dataset directory", () => {
  it("backtests on the directory base.dataset names (relative to the sweep file), merged into the scenario's dataset", async () => {
    const home = mkdtempSync(join(tmpdir(), "basecamp-sweep-dir-"));
    try {
      writeDatasetDir(join(home, "data"), "scored");
      writeFileSync(
        join(home, "scenario.json"),
        JSON.stringify({ name: "gen", seed: 5, calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1 }, agents: [{ name: "alice", key: "key-alice-0001", strategy: "ridge" }] }),
      );
      const [planned] = planCells(parseSweep({ base: { strategy: "ridge", scenario: "scenario.json", dataset: { dir: "data", core_features: ["feature_steep_ridge"] } } }, "s.json", home));
      expect(planned.cell.dataset).toEqual({ dir: join(home, "data"), core_features: ["feature_steep_ridge"] });
      const outcome = await runCell(planned.cell);
      if (!outcome.ok || outcome.result.kind !== "backtest") throw new Error(JSON.stringify(outcome));
      expect(outcome.result.report.context).toMatchObject({ train_rows: 10 * 40, validation_rows: 6 * 40 });
      expect(outcome.result.report.summary.entered).toBe(6);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
