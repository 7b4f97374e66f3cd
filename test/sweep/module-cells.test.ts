import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { SweepReport } from "../../src/report/sweep-report.js";
import { basecamp } from "../helpers/cli.js";
import { LEAVER, TINY_SCENARIO } from "./sweep-fixtures.js";

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
