import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { openDb } from "../../src/store/db.js";
import { deploymentOf } from "../../sim/deployment.js";
import { expectResumeGivesSameDigest } from "../helpers/resume.js";
import { runScenario } from "../../sim/engine.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-engine-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = smallScenario();
const world = buildWorld(deploymentOf(scenario));

describe("season replay", () => {
  it("gives the same event log digest for the same scenario and seed", async () => {
    const a = await runScenario(scenario, { world });
    const b = await runScenario(scenario);
    expect(a.finished).toBe(true);
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.digest).toBe(a.digest);
    expect(b.events).toBe(a.events);
  });

  it("gives another digest for another seed", async () => {
    const a = await runScenario(scenario, { world });
    const b = await runScenario(smallScenario({ seed: 8 }));
    expect(b.digest).not.toBe(a.digest);
  });

  it("settles every round and stands every model, with round scores inside the clip", async () => {
    const r = await runScenario(scenario, { world });
    expect(r.board.rounds_settled).toBe(3);
    expect(r.board.rank_metric).toBe("total_score");
    const names = r.board.rows.map((row) => row.model);
    expect(names).toEqual(expect.arrayContaining(["alice", "bob", "carol", "dave"]));
    // eve holds an event key: the tournament refuses her model, so she never stands.
    expect(names).not.toContain("eve");
    for (const row of r.board.rows) {
      expect(Math.abs(row.total)).toBeLessThanOrEqual(0.25 * row.rounds_scored + 1e-12);
    }
    const copier = r.board.rows.find((row) => row.model === "bob");
    expect(copier?.aimc).toBe(0);
  });

  it("tells each settled round with its board, and the standings after it when the listener reads them", async () => {
    const seen: { exped: string; settled: number; round?: number }[] = [];
    const r = await runScenario(scenario, {
      world,
      onEvent: (e) => e.kind === "settled" && seen.push({ exped: e.exped, settled: (e.board() as typeof r.board).rounds_settled, round: e.round?.rows.length }),
    });
    expect(seen.map((s) => s.settled)).toEqual([1, 2, 3]);
    expect(seen.every((s) => (s.round ?? 0) > 0)).toBe(true);
    let last: unknown;
    await runScenario(scenario, { world, onEvent: (e) => e.kind === "settled" && (last = e.board()) });
    expect(last).toEqual(r.board);
  });

  it("ends with the same digest when stopped after any step and resumed", () => expectResumeGivesSameDigest(scenario, world, dir));

  it("stops between steps when a face asks it to, and resumes to the unbroken run's digest", async () => {
    const whole = await runScenario(scenario, { world });
    const db = join(dir, "should-stop.db");
    let step = 0;
    const first = await runScenario(scenario, { world, db, onEvent: (e) => e.kind === "progress" && (step = e.step), shouldStop: () => step >= 4 });
    expect([first.finished, first.stepsDone]).toEqual([false, 4]);
    const resumed = await runScenario(scenario, { world, db, resume: true });
    expect([resumed.finished, resumed.digest]).toEqual([true, whole.digest]);
  });

  it("refuses to overwrite a stored run without --resume, and to resume under another seed", async () => {
    const db = join(dir, "guard.db");
    await runScenario(scenario, { world, db, stopAfter: 3 });
    await expect(runScenario(scenario, { world, db })).rejects.toThrow(/already holds a run/);
    await expect(runScenario(smallScenario({ seed: 99 }), { db, resume: true })).rejects.toThrow(/another scenario or seed/);
  });

  it("does not settle a round whose live benchmark lacks v1_designated", async () => {
    const faulty = smallScenario({ faults: { missing_benchmark_rounds: [2] } });
    const r = await runScenario(faulty);
    expect(r.board.rounds_settled).toBe(2);
    const db = join(dir, "fault.db");
    await runScenario(faulty, { db });
    const store = openDb(db);
    const round2 = store.prepare("SELECT status, note FROM rounds WHERE idx = 2").get();
    const scores = store.prepare("SELECT COUNT(*) AS n FROM scores s JOIN rounds r ON r.exped = s.exped WHERE r.idx = 2").get();
    store.close();
    expect(round2).toEqual({ status: "unsettled", note: "the live benchmark has no v1_designated column" });
    expect(scores).toEqual({ n: 0 });
  });

  it("scores a round with the scoring settings in force when it settles", async () => {
    const base = await runScenario(scenario, { world });
    const changed = smallScenario({ actions: [{ at: "2026-01-05T12:00:00Z", set_scoring: { clip: 0.01 } }] });
    const r = await runScenario(changed, { world });
    for (const row of r.board.rows) expect(Math.abs(row.total)).toBeLessThanOrEqual(0.01 * row.rounds_scored + 1e-12);
    expect(r.digest).not.toBe(base.digest);
  });
});
