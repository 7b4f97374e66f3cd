import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { buildWorld } from "../../src/service/kernel/deployment.js";
import { defaultStakingSettings, defaultWallet } from "../../src/service/kernel/settings/staking.js";
import { canonicalJson } from "../../src/store/canonical-json.js";
import { deploymentOf } from "../../sim/deployment.js";
import { expectResumeGivesSameDigest } from "../helpers/resume.js";
import { runScenario } from "../../sim/engine.js";
import { loadScenario, parseScenario } from "../../sim/scenario.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-staking-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The small season with three stakers (one with a 40 USDC allowance), a copier and a round that does not settle. */
const scenario = smallScenario({
  calendar: { start: "2026-01-05", n_rounds: 4, resolve_after_rounds: 1 },
  staking: { payout_factor_threshold_micro: 12_000_000, payout_cap: 0.2 },
  faults: { missing_benchmark_rounds: [3] },
  agents: [
    { name: "sam", key: "key-sam-00000001", strategy: "staker", params: { stake_usdc: "10" } },
    { name: "sue", key: "key-sue-00000002", strategy: "staker", params: { stake_usdc: "4.5", n_features: 4 } },
    { name: "max", key: "key-max-00000003", strategy: "staker", params: { stake_usdc: "30" }, wallet: { allowance_micro: 40_000_000 } },
    { name: "bob", key: "key-bob-00000004", strategy: "benchmark_copier" },
  ],
});
const world = buildWorld(deploymentOf(scenario));

function stakeEvents(db: string): { type: string; payload: any }[] {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare("SELECT type, payload FROM events WHERE type LIKE 'stake%' ORDER BY seq").all() as { type: string; payload: string }[]).map(
      (e) => ({ type: e.type, payload: JSON.parse(e.payload) }),
    );
  } finally {
    d.close();
  }
}

describe("a replay with stakes", () => {
  it("gives the same digest twice, in process", async () => {
    const a = await runScenario(scenario, { world });
    const b = await runScenario(scenario);
    expect(a.finished).toBe(true);
    expect(b.digest).toBe(a.digest);
    expect(b.events).toBe(a.events);
  });

  it("locks at every close and settles at every resolution, within the cap, with a factor in (0, 1]", async () => {
    const db = join(dir, "whole.db");
    const result = await runScenario(scenario, { world, db });
    const events = stakeEvents(db);
    const locked = events.filter((e) => e.type === "stakes.locked");
    const settled = events.filter((e) => e.type === "stakes.settled");
    expect(locked.map((e) => e.payload.exped)).toEqual(world.schedule.rounds.map((r) => r.window));
    expect(settled.length).toBe(4);
    for (const { payload } of locked) {
      expect(payload.payout_factor).toBeGreaterThan(0);
      expect(payload.payout_factor).toBeLessThanOrEqual(1);
    }
    expect(locked.some((e) => e.payload.payout_factor < 1)).toBe(true);
    for (const { payload } of settled) {
      for (const r of payload.results) expect(Math.abs(r.payout_micro)).toBeLessThanOrEqual(0.2 * r.principal_micro);
    }
    const unsettled = settled.find((e) => e.payload.exped === world.schedule.rounds[2].window)!;
    expect(unsettled.payload.results.every((r: { outcome: string; payout_micro: number }) => r.outcome === "returned" && r.payout_micro === 0)).toBe(true);
    const payouts = settled.flatMap((e) => e.payload.results).map((r: { payout_micro: number }) => r.payout_micro);
    expect(payouts.some((p: number) => p !== 0)).toBe(true);
    // The run's stake table: what each agent earned sums to every payout; nothing is left staked.
    expect(result.stakes?.product).toBe("tournament");
    expect(result.stakes?.rows.reduce((sum, r) => sum + r.settled_micro, 0)).toBe(payouts.reduce((a: number, b: number) => a + b, 0));
    expect(result.stakes?.rows.every((r) => r.locked_micro === 0)).toBe(true);
  });

  it("ends with the same digest when stopped after any step and resumed", () => expectResumeGivesSameDigest(scenario, world, dir));
});

describe("staking settings in a scenario", () => {
  it("leave a scenario without them exactly as it was: no staking block, no wallets in the deployment", () => {
    const d = deploymentOf(smallScenario());
    expect(d.staking).toBeUndefined();
    expect(canonicalJson(d.agents)).not.toContain("wallet");
  });

  it("fill the defaults of a partial block, and name a bad field", () => {
    const s = smallScenario({ staking: {}, agents: [{ name: "a", key: "key-a-00000001", strategy: "staker", wallet: {} }] });
    expect(s.staking).toEqual(defaultStakingSettings);
    expect(s.agents[0].wallet).toEqual(defaultWallet);
    const raw = JSON.parse(JSON.stringify(s));
    raw.staking.payout_cap = 0;
    expect(() => parseScenario(raw, "s.json")).toThrow(/staking\.payout_cap: /);
    raw.staking.payout_cap = 0.25;
    raw.agents[0].wallet.allowance_micro = 1.5;
    expect(() => parseScenario(raw, "s.json")).toThrow(/agents\[0\]\.wallet\.allowance_micro: /);
    raw.agents[0].wallet.allowance_micro = 1;
    raw.agents[0].params = { stake_usdc: "1.0000001" };
    expect(() => parseScenario(raw, "s.json")).toThrow(/agents\[0\]\.params\.stake_usdc: /);
  });

  it("ship a staking scenario that loads", () => {
    const s = loadScenario("scenarios/staking-tournament.json");
    expect(s.staking?.payout_factor_threshold_micro).toBe(40_000_000);
    expect(s.agents.filter((a) => a.strategy === "staker").length).toBeGreaterThan(0);
  });
});
