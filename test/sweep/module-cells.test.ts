import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { runCell } from "../../sim/sweep/run-cell.js";
import type { SweepReport } from "../../src/report/sweep-report.js";
import { basecamp } from "../helpers/cli.js";
import { LEAVER, roundStrategy, TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-module-cells-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A cell's outcome as `--cell N` prints it: the cell run alone, in a process of its own. */
async function alone(index: number): Promise<unknown> {
  const run = await basecamp(["sweep", join(dir, "sweep.json"), "--cell", String(index)]);
  return (JSON.parse(run.stdout) as { outcome: unknown }).outcome;
}

it("runs each cell of a module strategy as in a process of its own: its state, globals and writes into its frames reach no later cell", async () => {
  writeFileSync(join(dir, "leaver.ts"), LEAVER);
  writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
  // Three cells on one world: the leaver scribbling into its frames, then twice the same cell without.
  writeFileSync(join(dir, "sweep.json"), JSON.stringify({ base: { scenario: "tiny.json", strategy: "leaver.ts" }, axes: { params: { scribble: [true, false, false] } } }));
  const run = await basecamp(["sweep", join(dir, "sweep.json"), "--workers", "1", "--json", "--out", join(dir, "sweep.db")]);
  expect(run.status).toBe(0);
  const report = JSON.parse(run.stdout) as SweepReport;
  expect(report).toMatchObject({ cells: 3, unfinished: 0, failures: [] });
  const summary = (index: number) => report.rows.find((r) => r.index === index)?.summary;
  // Cells 1 and 2 are the same cell: each scored as it does alone.
  expect(summary(2)).toEqual(summary(1));
  expect(((await alone(1)) as { result: { report: { summary: unknown } } }).result.report.summary).toEqual(summary(1));
});

/** A module agent whose ranks shift with the rounds it has predicted in its module instance (a top-level count), importing the Strategy API from `api`. */
const counter = (api: string) =>
  roundStrategy(["const first = Object.values(live.columns)[0];", "rounds++;", "return uniformRanks(Float64Array.from(first, (_, i) => first[(i + rounds) % first.length]));"], {
    top: ["let rounds = 0;"],
    api,
  });

// Before, the rerun (the swarm's digest check) met the module as the replay had left it, and differed.
it("replays a scenario with a module agent and reruns it alike: each load of the module is an instance of its own", async () => {
  // In this process (vitest's), the module imports the Strategy API by its path.
  writeFileSync(join(dir, "counter.ts"), counter(fileURLToPath(new URL("../../sim/strategy-api.ts", import.meta.url))));
  const scenario = { ...TINY_SCENARIO, agents: [...TINY_SCENARIO.agents, { name: "counter", key: "key-cou-00000004", strategy: "counter.ts" }] };
  writeFileSync(join(dir, "with-counter.json"), JSON.stringify(scenario));
  const outcome = await runCell({ kind: "replay", params: {}, against: [], scenario: join(dir, "with-counter.json"), scenario_name: "with-counter.json", seed: 3 });
  expect(outcome).toMatchObject({ ok: true, result: { kind: "replay", violations: [] } });
});
