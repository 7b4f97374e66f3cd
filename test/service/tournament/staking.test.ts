import { describe, expect, it } from "vitest";
import { eventCount } from "../../../src/store/event-log.js";
import { harness } from "../../helpers/service-harness.js";
import { refused } from "../../helpers/refusal.js";
import { smallEvent } from "../../helpers/small-event.js";
import { ALICE, BOB, EVE, LLM, NOPASS, stakingScenario, UNCONFIRMED } from "../../helpers/staking-scenario.js";

const ORGANISER = "organiser-key-0000";

/** Round 1 open; alice, bob, nopass and unconfirmed each hold a model named after them. */
async function staking(overrides: Record<string, unknown> = {}) {
  const h = harness(stakingScenario(overrides));
  h.clock.set(h.round(1).open_at);
  for (const [key, name] of [[ALICE, "alice-model"], [BOB, "bob-model"], [NOPASS, "nopass-model"], [UNCONFIRMED, "unconf-model"]]) {
    await h.service.createModel(key, { name });
  }
  const stake = (amount_usdc: unknown, model_id = "alice-model", key = ALICE) => h.service.stakeFromWallet(key, { model_id, amount_usdc });
  /** Submits for `model` in the open round: the hidden target itself (a good score) or its mirror (a bad one). */
  const submit = async (model: string, key: string, sign: 1 | -1) => {
    const { exped, instrument_ids } = await h.service.instruments(key);
    const live = h.world.dataset.rounds.find((r) => r.exped === exped)!;
    const byId = new Map(live.frame.ids.map((id, i) => [id, live.target[i]]));
    const predictions = instrument_ids.map((instrument_id) => {
      const t = byId.get(instrument_id)!;
      return { instrument_id, prediction: sign === 1 ? t : 1 - t };
    });
    await h.service.submit(key, { model_id: model, exped, predictions });
  };
  const scoreOf = (model: string, exped: string) =>
    (h.ctx.db.prepare("SELECT s.score FROM scores s JOIN models m ON m.id = s.model_id WHERE m.name = ? AND s.exped = ?").get(model, exped) as { score: number }).score;
  return { ...h, stake, submit, scoreOf };
}

describe("stake_from_wallet", () => {
  it("stakes on the open round in micro units; a second stake adds to the model's principal", async () => {
    const h = await staking();
    const first = await h.stake("2.5");
    expect(first).toMatchObject({
      model: "alice-model",
      exped: h.round(1).window,
      amount_micro: 2_500_000,
      principal_micro: 2_500_000,
      status: "pending",
      remaining_micro: 47_500_000,
    });
    expect(first.stake_id).toMatch(/^stk_[0-9a-f]{16}$/);
    const second = await h.stake(0.000001);
    expect(second).toMatchObject({ stake_id: first.stake_id, amount_micro: 1, principal_micro: 2_500_001, remaining_micro: 47_499_999 });
    expect(await h.service.getStakeAllowance(ALICE)).toEqual({
      base_allowance_micro: 50_000_000,
      earned_micro: 0,
      allowance_micro: 50_000_000,
      staked_micro: 2_500_001,
      remaining_micro: 47_499_999,
      settled_micro: 0,
      passkey: true,
    });
  });

  it("refuses a principal that is not a positive finite dollar amount with at most 6 decimals (400)", async () => {
    const h = await staking();
    for (const bad of ["abc", "NaN", "Infinity", "1.0000001", "1e3", "-1", "0", "", " ", "0x10", -2, 0, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, true, {}]) {
      expect(await refused(h.stake(bad)), String(bad)).toEqual({ status: 400, code: "stake_principal_invalid", message: "Stake principal must be a finite dollar amount" });
    }
  });

  it("checks scope, then e-mail, then the principal", async () => {
    const h = await staking();
    expect(await refused(h.stake("abc", "alice-model", EVE))).toMatchObject({ status: 403, code: "scope_restricted" });
    expect(await refused(h.stake("1", "alice-model", LLM))).toMatchObject({ status: 403, code: "llm_scope_only" });
    expect(await refused(h.stake("abc", "unconf-model", UNCONFIRMED))).toEqual({ status: 403, code: "email_not_verified", message: "E-mail not verified" });
  });

  it("refuses a benchmark, another agent's model (403) and an unknown model (404)", async () => {
    const h = await staking();
    const bench = { status: 403, code: "benchmark_not_stakeable", message: "Cannot stake on a benchmark model" };
    expect(await refused(h.stake("1", "v1_designated"))).toEqual(bench);
    const { models } = await h.service.getModels(BOB);
    const notOwned = { status: 403, code: "model_not_owned", message: "Model does not belong to this agent" };
    expect(await refused(h.stake("1", models[0].id))).toEqual(notOwned);
    expect(await refused(h.stake("1", "bob-model"))).toEqual(notOwned);
    expect(await refused(h.stake("1", "mdl_0123456789abcdef"))).toEqual({ status: 404, code: "model_not_found", message: "Model not found" });
    expect(await refused(h.stake("1", "ghost"))).toMatchObject({ status: 404, code: "model_name_unknown" });
  });

  it("refuses a wallet without a passkey, and staking while no round is open (409)", async () => {
    const h = await staking();
    expect(await refused(h.stake("1", "nopass-model", NOPASS))).toEqual({ status: 409, code: "wallet_no_passkey", message: "Your wallet has no passkey." });
    h.clock.set(h.round(1).close_at);
    expect(await refused(h.stake("1"))).toMatchObject({ status: 409, code: "no_round_to_stake" });
  });

  it("refuses a stake over what is left of the limit, naming both in micro, exactly at any size", async () => {
    const h = await staking();
    await h.stake("40");
    expect(await refused(h.stake("10.000001"))).toEqual({
      status: 409,
      code: "over_allowance",
      message: "stake of 10000001 micro exceeds your stake limit of 10000000 micro",
    });
    expect((await refused(h.stake("123456789012345678901234567890"))).message).toBe(
      "stake of 123456789012345678901234567890000000 micro exceeds your stake limit of 10000000 micro",
    );
    await expect(h.stake("10")).resolves.toMatchObject({ principal_micro: 50_000_000, remaining_micro: 0 });
  });

  it("refuses with round_full once unscored rounds, together, have no room for the amount", async () => {
    const h = await staking({ staking: { round_capacity_micro: 30_000_000 }, calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 2 } });
    await h.stake("20");
    await h.stake("10", "bob-model", BOB);
    expect(await refused(h.stake("0.000001", "bob-model", BOB))).toEqual({
      status: 409,
      code: "round_full",
      message: "This round can't take that amount right now.",
    });
    // Round 1's locked stakes still fill the room while round 2 is open: room is shared by unscored rounds.
    h.clock.set(h.round(2).open_at);
    expect(h.round(1).resolves_at).toBeGreaterThan(h.round(2).open_at);
    expect(await refused(h.stake("1"))).toMatchObject({ code: "round_full" });
  });

  it("answers 503 Chain RPC unavailable for a round under the fault, from the scenario or toggled by the organiser", async () => {
    const fromScenario = await staking({ faults: { chain_rpc_unavailable_rounds: [1] } });
    expect(await refused(fromScenario.stake("1"))).toEqual({ status: 503, code: "chain_rpc_unavailable", message: "Chain RPC unavailable" });
    const h = await staking();
    await h.service.toggleFault(ORGANISER, "chain_rpc_unavailable", 1, true);
    expect(await refused(h.stake("1"))).toMatchObject({ status: 503 });
    await h.service.toggleFault(ORGANISER, "chain_rpc_unavailable", 1, false);
    await expect(h.stake("1")).resolves.toMatchObject({ amount_micro: 1_000_000 });
  });

  it("writes nothing on a refusal", async () => {
    const h = await staking({ staking: { round_capacity_micro: 1_000_000 } });
    const before = eventCount(h.ctx.db);
    await refused(h.stake("2"));
    await refused(h.stake("60"));
    await refused(h.stake("x"));
    expect(eventCount(h.ctx.db)).toBe(before);
    expect(await refused(h.service.getStake(ALICE, "alice-model"))).toMatchObject({ status: 404, code: "no_stake_policy" });
  });

  it("is served on tournament deployments only", async () => {
    const h = harness(smallEvent());
    expect(await refused(h.service.stakeFromWallet("key-tom-00000004", { model_id: "x", amount_usdc: "1" }))).toMatchObject({ status: 404, code: "not_found" });
    expect(await refused(h.service.getStakeAllowance("key-tom-00000004"))).toMatchObject({ status: 404, code: "not_found" });
  });
});

describe("locking and settling stakes", () => {
  it("locks at the close with the payout factor frozen, and pays score × factor capped at payout_cap × stake", async () => {
    const threshold = 16_000_000;
    const h = await staking({ staking: { payout_factor_threshold_micro: threshold, payout_cap: 0.1 } });
    await h.submit("alice-model", ALICE, 1);
    await h.submit("bob-model", BOB, -1);
    await h.stake("12");
    await h.stake("8", "bob-model", BOB);
    h.clock.set(h.round(1).close_at);
    const locked = await h.service.getStake(ALICE, "alice-model");
    const factor = threshold / 20_000_000;
    expect(locked.stakes[0]).toMatchObject({ status: "locked", payout_factor: factor, payout_micro: null });
    // A stake on round 2 does not change round 1's frozen factor.
    h.clock.set(h.round(2).open_at);
    const exped = h.round(1).window;
    const expected = (principal: number, score: number) => Math.trunc(principal * Math.min(0.1, Math.max(-0.1, score * factor)));
    const alice = (await h.service.getStake(ALICE, "alice-model")).stakes[0];
    const aliceScore = h.scoreOf("alice-model", exped);
    expect(aliceScore).toBeGreaterThan(0);
    expect(alice).toMatchObject({ status: "paid", score: aliceScore, payout_factor: factor, payout_micro: expected(12_000_000, aliceScore), note: null });
    const bob = (await h.service.getStake(BOB, "bob-model")).stakes[0];
    const bobScore = h.scoreOf("bob-model", exped);
    expect(bobScore).toBeLessThan(0);
    expect(bob.payout_micro).toBe(expected(8_000_000, bobScore));
    expect(Math.abs(alice.payout_micro!)).toBeLessThanOrEqual(1_200_000);
    expect(Math.abs(bob.payout_micro!)).toBeLessThanOrEqual(800_000);
  });

  it("moves the stake limit by the payouts and frees the principal once the round resolves", async () => {
    const h = await staking();
    await h.submit("alice-model", ALICE, 1);
    await h.stake("10");
    h.clock.set(h.round(2).open_at);
    const { payout_micro } = (await h.service.getStake(ALICE, "alice-model")).stakes[0];
    expect(payout_micro).toBeGreaterThan(0);
    expect(await h.service.getStakeAllowance(ALICE)).toMatchObject({
      earned_micro: payout_micro,
      allowance_micro: 50_000_000 + payout_micro!,
      staked_micro: 0,
      remaining_micro: 50_000_000 + payout_micro!,
      settled_micro: 10_000_000,
    });
  });

  it("returns a staked model's stake with payout 0 when it has no entry, and logs why", async () => {
    const h = await staking();
    await h.stake("5");
    h.clock.set(h.round(2).open_at);
    const policy = await h.service.getStake(ALICE, "alice-model");
    expect(policy).toMatchObject({ staked_micro: 0, earned_micro: 0 });
    expect(policy.stakes[0]).toMatchObject({ status: "returned", payout_micro: 0, score: null, note: "the model has no entry in this round" });
    const settled = h.ctx.db.prepare("SELECT payload FROM events WHERE type = 'stakes.settled'").all() as { payload: string }[];
    expect(settled.map((e) => JSON.parse(e.payload).results[0])).toMatchObject([{ outcome: "returned", payout_micro: 0 }]);
  });

  it("returns every stake of a round that does not settle (missing benchmark)", async () => {
    const h = await staking({ faults: { missing_benchmark_rounds: [1] } });
    await h.submit("alice-model", ALICE, 1);
    await h.stake("5");
    h.clock.set(h.round(2).open_at);
    const stake = (await h.service.getStake(ALICE, "alice-model")).stakes[0];
    expect(stake).toMatchObject({ status: "returned", payout_micro: 0 });
    expect(stake.note).toMatch(/^the round did not settle: /);
  });

  it("logs nothing for rounds without stakes", async () => {
    const h = await staking();
    await h.submit("alice-model", ALICE, 1);
    h.clock.set(h.round(3).resolves_at);
    await h.service.sync();
    const types = (h.ctx.db.prepare("SELECT type FROM events").all() as { type: string }[]).map((e) => e.type);
    expect(types.filter((t) => t.startsWith("stake"))).toEqual([]);
  });
});

describe("stake policy, allowance and legacy tools", () => {
  it("reads a model's stake policy; another agent's model is 403, a benchmark 403", async () => {
    const h = await staking();
    await h.stake("3");
    const policy = await h.service.getStake(ALICE, "alice-model");
    expect(policy).toMatchObject({ model: "alice-model", staked_micro: 3_000_000, earned_micro: 0 });
    expect(policy.stakes).toHaveLength(1);
    expect(await refused(h.service.getStake(BOB, "alice-model"))).toMatchObject({ status: 403, code: "model_not_owned" });
    expect(await refused(h.service.getStake(BOB, "v1_designated"))).toMatchObject({ status: 403, code: "benchmark_not_stakeable" });
    expect(await refused(h.service.getStakeAllowance(EVE))).toMatchObject({ status: 403, code: "scope_restricted" });
  });

  it("answers the legacy forwarder tools with 410, pointing at stake_from_wallet", async () => {
    const h = await staking();
    for (const tool of ["stake_on_model", "relay_stake", "relay_claim", "withdraw_usdc"] as const) {
      const r = await refused(h.service.legacyStaking(ALICE, tool));
      expect(r).toMatchObject({ status: 410, code: "forwarder_path_retired" });
      expect(r.message).toContain("stake_from_wallet");
    }
    for (const tool of ["get_deposit_address", "get_forwarder_balance"] as const) {
      const r = await refused(h.service.legacyStaking(ALICE, tool));
      expect(r).toMatchObject({ status: 410, code: "no_deposit_address" });
      expect(r.message).toContain("stake_from_wallet");
    }
    expect(await refused(h.service.legacyStaking(EVE, "relay_stake"))).toMatchObject({ status: 403, code: "scope_restricted" });
  });

  it("serves the payout map and its parameters with the scoring settings", async () => {
    const h = await staking({ staking: { payout_cap: 0.2 } });
    const view = await h.service.explainScoring();
    expect(view).toMatchObject({ payout_cap: 0.2, payout_factor_threshold_micro: 10_000_000_000, round_capacity_micro: 100_000_000_000 });
    expect(view.payout).toContain("payout_factor");
  });
});
