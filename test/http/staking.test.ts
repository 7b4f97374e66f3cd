import { beforeAll, describe, expect, it } from "vitest";
import { ALICE, BOB, EVE, NOPASS, stakingScenario, UNCONFIRMED } from "../helpers/staking-scenario.js";
import { ORGANISER, refusal, serveScenario, type TestServer } from "./server.js";

/**
 * The spec's "Staking (tournament)" table over a real server on 127.0.0.1. The room shared by
 * unscored rounds is 60 USDC; alice's allowance is 50 USDC, bob's the default 100.
 */
let s: TestServer;
let bobModelId: string;
const stake = (model_id: unknown, amount_usdc: unknown, key = ALICE) => s.post("/api/v1/staking/stake", { model_id, amount_usdc }, key);

beforeAll(async () => {
  s = await serveScenario(stakingScenario({ staking: { round_capacity_micro: 60_000_000 } }));
  for (const [key, name] of [[ALICE, "alice-model"], [BOB, "bob-model"], [NOPASS, "nopass-model"], [UNCONFIRMED, "unconf-model"]]) {
    expect((await s.post("/api/v1/models", { name }, key)).status).toBe(201);
  }
  bobModelId = (await s.get("/api/v1/models", BOB)).json.models[0].id;
});

describe("tournament staking over HTTP", () => {
  it("stakes with 201, and reads the allowance and the model's stake policy", async () => {
    const placed = await stake("alice-model", "2.5");
    expect(placed.status).toBe(201);
    expect(placed.json).toMatchObject({ model: "alice-model", amount_micro: 2_500_000, principal_micro: 2_500_000, status: "pending" });
    const allowance = await s.get("/api/v1/staking/allowance", ALICE);
    expect(allowance.status).toBe(200);
    expect(allowance.json).toMatchObject({ allowance_micro: 50_000_000, staked_micro: 2_500_000, remaining_micro: 47_500_000, passkey: true });
    const policy = await s.get("/api/v1/staking/models/alice-model", ALICE);
    expect(policy.json).toMatchObject({ model: "alice-model", staked_micro: 2_500_000, stakes: [{ stake_id: placed.json.stake_id, status: "pending" }] });
  });

  it("403 e-mail not verified (General) through a staking call", async () => {
    expect(refusal(await stake("unconf-model", "1", UNCONFIRMED))).toEqual({ status: 403, code: "email_not_verified", message: "E-mail not verified" });
  });

  it("409 Your wallet has no passkey.", async () => {
    expect(refusal(await stake("nopass-model", "1", NOPASS))).toEqual({ status: 409, code: "wallet_no_passkey", message: "Your wallet has no passkey." });
  });

  it("409 over_allowance, amounts in micro", async () => {
    const a = await stake("alice-model", "47.500001");
    expect(refusal(a)).toEqual({ status: 409, code: "over_allowance", message: "stake of 47500001 micro exceeds your stake limit of 47500000 micro" });
    expect(a.json.detail.remaining_micro).toBe(47_500_000);
  });

  it("409 round_full: the room is shared by every unscored round", async () => {
    expect(refusal(await stake("bob-model", "57.500001", BOB))).toEqual({
      status: 409,
      code: "round_full",
      message: "This round can't take that amount right now.",
    });
  });

  it("403 Cannot stake on a benchmark model; 403 Model does not belong to this agent", async () => {
    expect(refusal(await stake("v1_designated", "1"))).toEqual({ status: 403, code: "benchmark_not_stakeable", message: "Cannot stake on a benchmark model" });
    expect(refusal(await stake(bobModelId, "1"))).toEqual({ status: 403, code: "model_not_owned", message: "Model does not belong to this agent" });
    expect(refusal(await s.get(`/api/v1/staking/models/${bobModelId}`, ALICE))).toMatchObject({ status: 403, code: "model_not_owned" });
  });

  it("404 No stake policy set for this model; 404 Model not found", async () => {
    expect(refusal(await s.get("/api/v1/staking/models/bob-model", BOB))).toEqual({ status: 404, code: "no_stake_policy", message: "No stake policy set for this model" });
    expect(refusal(await stake("mdl_0123456789abcdef", "1"))).toEqual({ status: 404, code: "model_not_found", message: "Model not found" });
  });

  it("400 Stake principal must be a finite dollar amount (strings, too many decimals, a number beyond a double)", async () => {
    const invalid = { status: 400, code: "stake_principal_invalid", message: "Stake principal must be a finite dollar amount" };
    for (const bad of ["abc", "NaN", "1.0000001", "-3", 0]) expect(refusal(await stake("alice-model", bad)), String(bad)).toEqual(invalid);
    const huge = await s.call("POST", "/api/v1/staking/stake", { key: ALICE, raw: '{"model_id":"alice-model","amount_usdc":1e999}', headers: { "content-type": "application/json" } });
    expect(refusal(huge)).toEqual(invalid);
    const missing = await s.post("/api/v1/staking/stake", { model_id: "alice-model" }, ALICE);
    expect(missing.status).toBe(422);
    expect(missing.json.detail.loc).toEqual(["body", "amount_usdc"]);
  });

  it("503 Chain RPC unavailable while the organiser's fault is on", async () => {
    const on = await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "chain_rpc_unavailable", round: 1, on: true } });
    expect(on.json).toEqual({ missing_benchmark_rounds: [], empty_live_rounds: [], chain_rpc_unavailable_rounds: [1] });
    expect(refusal(await stake("alice-model", "1"))).toEqual({ status: 503, code: "chain_rpc_unavailable", message: "Chain RPC unavailable" });
    await s.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "chain_rpc_unavailable", round: 1, on: false } });
    expect((await stake("alice-model", "1")).status).toBe(201);
  });

  it("410 forwarder_path_retired / no_deposit_address on the legacy paths, pointing at stake_from_wallet", async () => {
    for (const [method, path, code] of [
      ["POST", "/api/v1/staking/relay-stake", "forwarder_path_retired"],
      ["POST", "/api/v1/staking/relay-claim", "forwarder_path_retired"],
      ["POST", "/api/v1/staking/withdraw", "forwarder_path_retired"],
      ["GET", "/api/v1/staking/deposit-address", "no_deposit_address"],
      ["GET", "/api/v1/staking/forwarder-balance", "no_deposit_address"],
    ]) {
      const a = await s.call(method, path, { key: ALICE });
      expect(refusal(a), path).toMatchObject({ status: 410, code });
      expect(a.json.detail.message).toContain("stake_from_wallet");
    }
  });

  it("refuses other scopes, and answers 409 no_round_to_stake once the round has closed; the stake then locks", async () => {
    expect(refusal(await stake("alice-model", "1", EVE))).toMatchObject({ status: 403, code: "scope_restricted" });
    await s.advance({ to: "next_phase" });
    expect(refusal(await stake("alice-model", "1"))).toMatchObject({ status: 409, code: "no_round_to_stake" });
    const policy = await s.get("/api/v1/staking/models/alice-model", ALICE);
    expect(policy.json.stakes[0]).toMatchObject({ status: "locked", principal_micro: 3_500_000, payout_factor: 1 });
  });

  it("serves the payout map on /api/v1/scoring", async () => {
    const scoring = await s.get("/api/v1/scoring");
    expect(scoring.json).toMatchObject({ payout_cap: 0.25, payout_factor_threshold_micro: 10_000_000_000, round_capacity_micro: 60_000_000 });
  });
});
