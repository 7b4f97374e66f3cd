import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planCells, type PlannedCell } from "../../sim/sweep/cells.js";
import { runCell } from "../../sim/sweep/run-cell.js";
import { loadSweep, parseSweep } from "../../sim/sweep/sweep-file.js";
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

  it("says what a union takes and what it got", () => {
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { lambda: "abc" } } })).toThrow(
      'axes.params.lambda: expected a non-empty list of values or a range {"min": number, "max": number, "log"?: boolean, "int"?: boolean}, got "abc"',
    );
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { seeds: [1.5] } })).toThrow(
      'axes.seeds: expected a non-empty list of seeds (integers or non-empty strings) or {"from"?: integer, "count": 1 to 10000}, got [1.5]',
    );
    expect(() => sweep({ base: { strategy: "ridge" }, sample: { n: 1, seed: 1.5 } })).toThrow("sample.seed: expected an integer or a non-empty string, got 1.5");
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { lambda: "x".repeat(100) } } })).toThrow(/got "x{58}…$/);
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

  it("names a strategy file by its name, or as written where the axis has another file of that name", () => {
    const cells = planCells(sweep({ base: { strategy: "ridge" }, axes: { strategies: ["a/agent.py", "b/agent.py", "sub/mine.py", "ridge"] } }));
    expect(cells.map((c) => c.varied.strategy)).toEqual(["a/agent.py", "b/agent.py", "mine.py", "ridge"]);
  });

  it("gives a parameter named as an axis (LightGBM's seed) a column of its own, beside the scenario's seed", () => {
    const cells = planCells(sweep({ base: { strategy: "ridge" }, axes: { params: { seed: [1, 2] }, seeds: [5, 6] } }));
    expect(cells.map((c) => c.varied)).toEqual([
      { "params.seed": 1, seed: 5 },
      { "params.seed": 1, seed: 6 },
      { "params.seed": 2, seed: 5 },
      { "params.seed": 2, seed: 6 },
    ]);
    expect(cells[2].cell).toMatchObject({ params: { seed: 2 }, seed: 5 });
  });

  it("refuses a grid of more than 10,000 cells, naming the axes, and a sample or a seed count of more", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(planCells(sweep({ base: { strategy: "ridge" }, axes: { params: { a: values(100) }, seeds: { count: 100 } } }))).toHaveLength(10_000);
    expect(() => planCells(sweep({ base: { strategy: "ridge" }, axes: { params: { a: values(100), b: values(101) } } }))).toThrow(/the sweep's axes make 10100 cells \(a 100 × b 101\); at most 10000/);
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { params: { a: { min: 0, max: 1 } } }, sample: { n: 10_001, seed: 1 } })).toThrow(/sample\.n: .*10000/);
    expect(() => sweep({ base: { strategy: "ridge" }, axes: { seeds: { count: 10_001 } } })).toThrow(/axes\.seeds\.count: .*10000/);
  });

  it("refuses a sweep file over 16 MiB, or not a regular file, before reading it", () => {
    const dir = mkdtempSync(join(tmpdir(), "basecamp-sweep-file-"));
    try {
      const huge = join(dir, "huge.json");
      writeFileSync(huge, "");
      truncateSync(huge, 16 * 1024 * 1024 + 1);
      expect(() => loadSweep(huge)).toThrow(`${huge}: the file is 16777217 bytes, at most 16777216 (a sweep file is a few kB)`);
      expect(() => loadSweep(dir)).toThrow(`${dir}: not a regular file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

describe("a sample of list axes", () => {
  const grid = { base: { strategy: "ridge" }, axes: { params: { alpha: [1, 2, 3] }, seeds: [1, 2, 3] } };
  const raw = (n: number, seed: number | string = 3) => ({ ...grid, sample: { n, seed } });
  const keys = (cells: PlannedCell[]) => cells.map((c) => JSON.stringify(c.cell));

  it("draws every cell of the grid once when n is the grid's size", () => {
    const cells = planCells(sweep(raw(9)));
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(keys(cells).sort()).toEqual(keys(planCells(sweep(grid))).sort());
  });

  it("draws the same cells, in the same order, for the same seed", () => {
    expect(keys(planCells(sweep(raw(5, "s"))))).toEqual(keys(planCells(sweep(raw(5, "s")))));
    expect(keys(planCells(sweep(raw(5, "s"))))).not.toEqual(keys(planCells(sweep(raw(5, "t")))));
  });

  it("refuses more cells than the grid has, naming sample.n", () => {
    expect(() => planCells(sweep(raw(10)))).toThrow('sample.n is 10 but the grid has only 9 cells (alpha 3 × seed 3): drop "sample" to run the whole grid');
  });

  it("draws distinct cells from a grid too large to run whole", () => {
    const values = Array.from({ length: 400 }, (_, i) => i);
    const cells = planCells(sweep({ base: { strategy: "ridge" }, axes: { params: { a: values, b: values } }, sample: { n: 2000, seed: 1 } }));
    expect(new Set(keys(cells)).size).toBe(2000);
  });

  it("draws distinct cells of the grid, for any list axes and n up to the grid's size", () => {
    const axes = fc.record({
      params: fc.array(fc.uniqueArray(fc.integer({ min: -5, max: 5 }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
      seeds: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(axes, fc.nat(), fc.integer(), ({ params, seeds }, k, seed) => {
        const grid = { base: { strategy: "ridge" }, axes: { params: Object.fromEntries(params.map((values, i) => [`p${i}`, values])), ...(seeds ? { seeds } : {}) } };
        const all = new Set(keys(planCells(sweep(grid))));
        const drawn = keys(planCells(sweep({ ...grid, sample: { n: 1 + (k % all.size), seed } })));
        expect(new Set(drawn).size).toBe(drawn.length);
        for (const cell of drawn) expect(all).toContain(cell);
      }),
    );
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
