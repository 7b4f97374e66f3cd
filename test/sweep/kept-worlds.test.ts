import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Cell } from "../../sim/sweep/cells.js";
import { runCell } from "../../sim/sweep/run-cell.js";
import { loadWorld } from "../../src/service/kernel/deployment.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

// The real loadWorld, counted: a cell on a world this process has built takes it rather than building it again.
vi.mock("../../src/service/kernel/deployment.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/service/kernel/deployment.js")>();
  return { ...real, loadWorld: vi.fn(real.loadWorld) };
});

const dir = mkdtempSync(join(tmpdir(), "basecamp-kept-worlds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scenario = join(dir, "tiny.json");
writeFileSync(scenario, JSON.stringify(TINY_SCENARIO));

const cell = (seed: number, lambda: number, scoring?: Cell["scoring"]): Cell => ({
  kind: "backtest",
  strategy: "ridge",
  params: { lambda },
  against: [],
  scenario,
  scenario_name: "tiny.json",
  seed,
  ...(scoring ? { scoring } : {}),
});

/** Runs the cells in order: the worlds built for them (loadWorld's calls), and the outcomes. */
async function run(cells: Cell[]) {
  vi.mocked(loadWorld).mockClear();
  const outcomes = [];
  for (const c of cells) outcomes.push(await runCell(c));
  return { built: vi.mocked(loadWorld).mock.calls.length, outcomes };
}

describe("a sweep-worker's kept worlds", () => {
  it("builds a world once for the cells on it (other params, other scoring), and again for another seed", async () => {
    const { built, outcomes } = await run([cell(101, 1), cell(101, 10), cell(101, 1, { clip: 0.1 }), cell(102, 1)]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(built).toBe(2);
  });

  it("keeps the last 4: a fifth world pushes out the least recently used, which is built again", async () => {
    const seeds = [201, 202, 203, 204];
    expect((await run(seeds.map((s) => cell(s, 1)))).built).toBe(4);
    expect((await run([cell(204, 2), cell(201, 2)])).built).toBe(0);
    // 201 was used last: the fifth world pushes out 202, the least recently used.
    expect((await run([cell(205, 1), cell(201, 3), cell(202, 3)])).built).toBe(2);
  });

  it("gives a replay on a kept world its own scoring settings, not those of the cell the world was built for", async () => {
    const replay = (clip: number): Cell => ({ kind: "replay", params: {}, against: [], scenario, scenario_name: "tiny.json", seed: 401, scoring: { clip } });
    const { built, outcomes } = await run([replay(0.25), replay(0.001)]);
    const results = outcomes.map((o) => (o.ok && o.result.kind === "replay" ? o.result : null));
    // Each replay's digest matches its rerun from scratch (a world built for it alone), and the two differ.
    expect(results.map((r) => r?.violations)).toEqual([[], []]);
    expect(results[0]!.digest).not.toBe(results[1]!.digest);
    // One world for both, plus each replay's rerun from scratch.
    expect(built).toBe(3);
  });

  it("gives a cell the same outcome, byte for byte, whether its world was built for it or kept", async () => {
    const fresh = (await run([cell(301, 5)])).outcomes[0];
    const kept = (await run([cell(301, 7), cell(301, 5)])).outcomes[1];
    expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh));
  });
});
