import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planCells } from "../../sim/sweep/cells.js";
import { STEP_INVARIANTS, type Invariant } from "../../sim/sweep/invariants.js";
import { runCell, type CellOutcome } from "../../sim/sweep/run-cell.js";
import { loadSweep } from "../../sim/sweep/sweep-file.js";
import { sweepReport } from "../../sim/sweep/sweep-report.js";
import { formatSweepText } from "../../src/report/sweep-text.js";
import { basecamp } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-swarm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TINY = {
  name: "tiny",
  seed: 7,
  dataset: { n_features: 8, n_core: 3, train_expeds: 10, validation_expeds: 4, rows_per_exped: 40, gap_expeds: 2, universe_size: 30 },
  calendar: { start: "2026-01-05", n_rounds: 4, resolve_after_rounds: 1 },
  agents: [
    { name: "alice", key: "key-alice-0001", strategy: "ridge" },
    { name: "bob", key: "key-bob-00000002", strategy: "benchmark_copier" },
    { name: "carol", key: "key-carol-000003", strategy: "noisy_oracle", params: { noise: 0.1 } },
  ],
};
writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY));
const swarm = (name: string, base: Record<string, unknown>, count: number) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ kind: "replay", base, axes: { seeds: { from: 1, count } } }));
  return { path, cells: planCells(loadSweep(path)) };
};

/** A deliberately wrong "invariant": no exped scores above 0.01 (an oracle does). */
const tooStrict: Invariant = {
  name: "every score below 0.01",
  check: ({ ctx }) => {
    const row = ctx.db.prepare("SELECT exped, score FROM scores WHERE score > 0.01 ORDER BY exped LIMIT 1").get() as { exped: string; score: number } | undefined;
    return row ? `${row.exped} scored ${row.score}` : null;
  },
};

describe("a swarm (a replay sweep over seeds)", () => {
  it("checks the invariants after every step of each seed's replay, and its digest on a rerun", async () => {
    const { cells } = swarm("tiny-swarm.json", { scenario: "tiny.json" }, 3);
    const outcomes: CellOutcome[] = [];
    for (const c of cells) outcomes.push(await runCell(c.cell));
    const results = outcomes.map((o) => (o.ok && o.result.kind === "replay" ? o.result : null));
    for (const r of results) expect(r).toMatchObject({ violations: [] });
    // Each seed is its own world; the same seed gives the same log.
    expect(new Set(results.map((r) => r?.digest)).size).toBe(3);
    expect(await runCell(cells[0].cell)).toEqual(outcomes[0]);
  }, 120_000);

  it("holds over 100 seeds of the default event, whose agents stake and spend their upload pools (--workers 2)", async () => {
    const { path } = swarm("event-swarm.json", { scenario: "default-event" }, 100);
    const run = await basecamp(["sweep", path, "--workers", "2", "--out", join(dir, "event-swarm.db")]);
    expect(run.stderr).toContain("sweep: 100 of 100 cells done, 0 failed");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`sweep ${path}: replays, 100 of 100 cells finished, 0 failed\n\n100 replays checked after every step: 0 broke an invariant; 100 distinct event-log digests\n`);
  }, 600_000);

  it("reports a broken invariant at the step it first fails, with the command that reproduces the seed", async () => {
    const { path, cells } = swarm("broken.json", { scenario: "tiny.json" }, 2);
    const finished = [];
    for (const c of cells) finished.push({ index: c.index, status: "done" as const, outcome: await runCell(c.cell, [...STEP_INVARIANTS, tooStrict]) });
    const report = sweepReport(cells, finished, "score.mean", path);
    expect(report.replays).toHaveLength(2);
    const broken = report.replays.filter((r) => r.violations.length > 0);
    expect(broken.length).toBeGreaterThan(0);
    for (const r of broken) {
      expect(r.violations).toEqual([{ invariant: "every score below 0.01", step: expect.any(Number), detail: expect.stringMatching(/^exped_\d+ scored 0\.\d+/) }]);
      expect(r.violations[0].step).toBeLessThan(r.steps);
      expect(r.reproduce).toBe(`basecamp sweep ${path} --cell ${r.index}`);
    }
    const text = formatSweepText(report);
    expect(text).toContain(`2 replays checked after every step: ${broken.length} broke an invariant`);
    expect(text).toContain(`cell ${broken[0].index} (seed ${broken[0].index + 1}):\n  every score below 0.01, after step ${broken[0].violations[0].step}: `);
    expect(text).toContain(`  reproduce: basecamp sweep ${path} --cell ${broken[0].index}`);
  }, 120_000);

  it("runs from the command line; --cell runs one seed alone with its checks", async () => {
    const { path } = swarm("cli.json", { scenario: "tiny.json" }, 2);
    const run = await basecamp(["sweep", path, "--workers", "2", "--out", join(dir, "cli.db")]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`sweep ${path}: replays, 2 of 2 cells finished, 0 failed\n\n2 replays checked after every step: 0 broke an invariant; 2 distinct event-log digests\n`);
    const one = await basecamp(["sweep", path, "--cell", "1"]);
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ index: 1, varied: { seed: 2 }, cell: { kind: "replay", seed: 2 }, outcome: { ok: true, result: { violations: [] } } });
  }, 120_000);
});
