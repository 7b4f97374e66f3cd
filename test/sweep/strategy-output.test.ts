import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { SweepReport } from "../../src/report/sweep-report.js";
import { basecamp } from "../helpers/cli.js";
import { roundStrategy, TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-strategy-output-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module strategy that prints to stdout, the sweep-worker's own, without ending its line, then predicts its rows' feature sums. */
const CHATTY = roundStrategy([
  "process.stdout.write('thinking ');",
  "const columns = Object.values(live.columns);",
  "return uniformRanks(Float64Array.from(live.ids, (_, r) => columns.reduce((s, c) => s + c[r], 0)));",
]);

// Before, its unended line ran into the worker's result line, which the pool then never found: the sweep hung.
it("finishes a sweep whose strategy prints to stdout without a newline, its output passed on to stderr", async () => {
  writeFileSync(join(dir, "chatty.ts"), CHATTY);
  writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
  writeFileSync(join(dir, "sweep.json"), JSON.stringify({ base: { strategy: "chatty.ts", scenario: "tiny.json" }, axes: { seeds: [1, 2] } }));
  const run = await basecamp(["sweep", join(dir, "sweep.json"), "--workers", "1", "--json", "--out", join(dir, "sweep.db")]);
  expect(run.status).toBe(0);
  const report = JSON.parse(run.stdout) as SweepReport;
  expect(report).toMatchObject({ cells: 2, unfinished: 0, failures: [] });
  expect(report.rows).toHaveLength(2);
  expect(run.stderr).toMatch(/^thinking (thinking )*$/m);
});
