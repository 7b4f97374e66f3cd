import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { deploymentOf } from "../../sim/deployment.js";
import { runScenario, type EngineEvent } from "../../sim/engine.js";
import { loadScenario } from "../../sim/scenario.js";
import { openDb } from "../../src/store/db.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-event-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = loadScenario("scenarios/default-event.json");
const world = buildWorld(deploymentOf(scenario));

async function replay(db?: string) {
  const log: string[] = [];
  const settled: string[] = [];
  const result = await runScenario(scenario, {
    world,
    db,
    onEvent: (e: EngineEvent) => {
      if (e.kind === "log") log.push(e.line);
      if (e.kind === "settled") settled.push(e.exped);
    },
  });
  return { result, log, settled };
}

describe("the default event, replayed", () => {
  it("runs to done with every lane rule on show, and the same digest twice", async () => {
    const db = join(dir, "event.db");
    const { result, log, settled } = await replay(db);
    expect(result.finished).toBe(true);
    expect(settled).toEqual(["round_1", "round_2", "round_3", "round_4"]);
    const has = (agent: string, text: string) => log.some((l) => l.includes(` ${agent} `) && l.includes(text));
    expect(has("echo", "409 predictions_already_filed: Identical predictions are already filed in this event by another participant.")).toBe(true);
    expect(has("greedy", "409 upload_limit_reached: Upload limit reached: 12 uploads per agent, counted across all your models and every round.")).toBe(true);
    expect(has("hasty", "409 cadence_not_open: No paid round is fully open for intake.")).toBe(true);
    expect(has("drift", "409 insufficient_balance: Insufficient balance: 60000000 micro asked, 50000000 micro spendable")).toBe(true);
    expect(has("atlas", "drafted 5000000 micro on participant_")).toBe(true);

    const store = openDb(db);
    const failed = store
      .prepare("SELECT error_message FROM uploads u JOIN agents a ON a.id = u.agent_id WHERE a.name = 'fumble' AND u.status = 'failed'")
      .all() as { error_message: string }[];
    const practice = store
      .prepare("SELECT COUNT(*) AS n FROM uploads WHERE lane = 'practice' AND status = 'finalised'")
      .get() as { n: number };
    const burned = store
      .prepare("SELECT COUNT(*) AS n FROM uploads u JOIN agents a ON a.id = u.agent_id WHERE a.name = 'greedy' AND lane = 'round'")
      .get() as { n: number };
    const stakes = store
      .prepare("SELECT COUNT(*) AS locked, SUM(settled_at IS NOT NULL) AS settled FROM stake_windows")
      .get() as { locked: number; settled: number };
    const settlements = store.prepare("SELECT COUNT(*) AS n, SUM(payout_micro) AS paid FROM stake_settlements").get() as { n: number; paid: number };
    store.close();
    expect(stakes).toEqual({ locked: 4, settled: 4 });
    expect(settlements.n).toBe(12);
    // Balances: every staking agent's net is its deposit plus what its settlements paid, nothing else.
    const stakers = result.stakes?.rows ?? [];
    expect(stakers.map((r) => r.agent).sort()).toEqual(["atlas", "borealis", "cirrus", "drift", "echo", "fumble", "greedy", "hasty"]);
    expect(stakers.reduce((sum, r) => sum + r.net_micro - 50_000_000, 0)).toBe(settlements.paid);
    expect(stakers.every((r) => r.locked_micro === 0)).toBe(true);
    expect(failed).toHaveLength(4);
    expect(failed[0].error_message).toMatch(/^None of your predicted ids overlapped the validation set\. \(0 of 400 predicted ids matched\.\)$/);
    expect(practice.n).toBeGreaterThanOrEqual(4);
    expect(burned.n).toBe(12);

    const names = result.board.rows.map((r) => r.model);
    expect(result.board.rows.length).toBeGreaterThan(0);
    for (const n of names) expect(n).toMatch(/^participant_[0-9a-f]{10}$/);
    expect((await replay()).result.digest).toBe(result.digest);
  });

  it("resumes to the same digest after stopping part-way", async () => {
    const whole = await runScenario(scenario, { world });
    const db = join(dir, "resume.db");
    const half = Math.floor(whole.steps / 2);
    await runScenario(scenario, { world, db, stopAfter: half });
    const resumed = await runScenario(scenario, { world, db, resume: true });
    expect(resumed.digest).toBe(whole.digest);
  });
});

describe("organiser actions in an event replay", () => {
  it("turns practice-board maintenance on and off at their instants: practice uploads in between answer 503", async () => {
    const start = Date.parse(scenario.event?.start as string);
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const withMaintenance = { ...scenario, actions: [
      { at: at(0), set_fault: { fault: "diagnostics_maintenance" as const, on: true } },
      { at: at(20), set_fault: { fault: "diagnostics_maintenance" as const, on: false } },
    ] };
    const log: string[] = [];
    await runScenario(withMaintenance, { world, onEvent: (e) => e.kind === "log" && log.push(e.line) });
    expect(log).toContain(`${at(0)} organiser turned diagnostics_maintenance on`);
    const refused = log.filter((l) => l.includes("503 diagnostics_maintenance"));
    // The four event_ridge agents rehearse 10-50 % into the 35-minute build phase: all inside the window.
    expect(refused.length).toBe(4);
    for (const l of refused) expect(l < at(20)).toBe(true);
    expect(log.filter((l) => l.includes(" build: filed "))).toEqual([]);
  });
});
