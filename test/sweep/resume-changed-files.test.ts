import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import { ResultsStore } from "../../sim/sweep/results-store.js";
import type { SweepReport } from "../../src/report/sweep-report.js";
import { basecamp } from "../helpers/cli.js";
import { roundStrategy, TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-resume-changed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A module strategy predicting each row's `sign` times its first feature. */
const strategy = (sign: 1 | -1) => roundStrategy([`return uniformRanks(Object.values(live.columns)[0].map((v) => ${sign} * v));`]);

const sweep = (...args: string[]) => basecamp(["sweep", join(dir, "sweep.json"), "--workers", "1", "--json", ...args]);
const scores = (run: { stdout: string }) => (JSON.parse(run.stdout) as SweepReport).rows.map((r) => r.summary.score.mean);

it("--resume runs again the done cells whose strategy file has changed since, rather than ranking the old code's numbers beside the new", async () => {
  writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
  writeFileSync(join(dir, "sweep.json"), JSON.stringify({ base: { scenario: "tiny.json" }, axes: { strategies: ["signed.ts", "ridge"], seeds: [1, 2] } }));
  writeFileSync(join(dir, "signed.ts"), strategy(1));
  const first = await sweep("--out", join(dir, "a.db"));
  expect(first.status).toBe(0);
  writeFileSync(join(dir, "signed.ts"), strategy(-1));
  const resumed = await sweep("--out", join(dir, "a.db"), "--resume");
  expect(resumed.status).toBe(0);
  // The two signed.ts cells run again; the ridge's, whose files are unchanged, do not.
  expect(resumed.stderr.split("\n").filter(Boolean).map((l) => l.replace(/, ETA .*$/, ""))).toEqual([
    "sweep: 2 done cells ran a strategy or scenario file changed since; they run again",
    "sweep: 3 of 4 cells done, 0 failed",
    "sweep: 4 of 4 cells done, 0 failed",
  ]);
  const fresh = await sweep("--out", join(dir, "b.db"));
  expect(resumed.stdout).toBe(fresh.stdout);
  expect(scores(resumed)).not.toEqual(scores(first));
});

it("--resume runs again the done replay cells whose scenario's agent's file has changed since", async () => {
  const scenario = { ...TINY_SCENARIO, agents: [...TINY_SCENARIO.agents, { name: "sig", key: "key-sig-00000003", strategy: "signed.ts" }] };
  writeFileSync(join(dir, "played.json"), JSON.stringify(scenario));
  writeFileSync(join(dir, "swarm.json"), JSON.stringify({ kind: "replay", base: { scenario: "played.json" }, axes: { seeds: [1, 2] } }));
  writeFileSync(join(dir, "signed.ts"), strategy(1));
  const swarm = (...args: string[]) => basecamp(["sweep", join(dir, "swarm.json"), "--workers", "1", "--json", "--out", join(dir, "swarm.db"), ...args]);
  expect((await swarm()).status).toBe(0);
  writeFileSync(join(dir, "signed.ts"), strategy(-1));
  const resumed = await swarm("--resume");
  expect(resumed.status).toBe(0);
  expect(resumed.stderr.split("\n")[0]).toBe("sweep: 2 done cells ran a strategy or scenario file changed since; they run again");
});

it("resumes a store made before cells kept their files' digest, its done cells taken as current", () => {
  const path = join(dir, "old.db");
  const cell: PlannedCell = { index: 0, varied: {}, cell: { kind: "backtest", strategy: "ridge", params: {}, against: [], scenario: join(dir, "tiny.json"), scenario_name: "tiny.json" } };
  const outcome = { ok: false as const, reason: "no matter", traceback: "" };
  const store = new ResultsStore(path, path, [cell], "plan", false, new Map([[0, "then"]]));
  store.record(cell, outcome);
  store.close();
  const db = new Database(path);
  db.exec("UPDATE cells SET status = 'done'; ALTER TABLE cells DROP COLUMN files_digest");
  db.close();
  // Another sweep's: refused before anything is written to it (no column added).
  expect(() => new ResultsStore(path, path, [cell], "another plan", true, new Map())).toThrow(`${path} holds the results of a different sweep; pass another --out`);
  const check = new Database(path, { readonly: true });
  expect(check.prepare("SELECT name FROM pragma_table_info('cells')").pluck().all()).not.toContain("files_digest");
  check.close();
  const resumed = new ResultsStore(path, path, [cell], "plan", true, new Map([[0, "now"]]));
  expect(resumed.done()).toEqual({ done: new Set([0]), changed: [] });
  resumed.close();
});
