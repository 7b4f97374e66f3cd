import { beforeAll, describe, expect, it } from "vitest";
import { ALICE, stakingScenario, UNCONFIRMED } from "../helpers/staking-scenario.js";
import { serveScenario, type TestServer } from "../http/server.js";
import { callTool, mcpClient } from "./client.js";

let s: TestServer;
beforeAll(async () => {
  s = await serveScenario(stakingScenario());
  await s.post("/api/v1/models", { name: "alice-model" }, ALICE);
});

describe("staking tools over /mcp", () => {
  it("stake_from_wallet stakes and get_stake_allowance reads what REST reads", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const placed = await callTool(alice, "stake_from_wallet", { model: "alice-model", amount_usdc: "1.25" });
    expect(placed.isError).toBe(false);
    expect(placed.json).toMatchObject({ model: "alice-model", amount_micro: 1_250_000, status: "pending" });
    const allowance = await callTool(alice, "get_stake_allowance");
    expect(allowance.json).toEqual((await s.get("/api/v1/staking/allowance", ALICE)).json);
    expect(allowance.json).toMatchObject({ staked_micro: 1_250_000, remaining_micro: 48_750_000 });
    const policy = await callTool(alice, "get_stake", { model: "alice-model" });
    expect(policy.json).toEqual((await s.get("/api/v1/staking/models/alice-model", ALICE)).json);
  });

  it("answers a refusal with the REST error body", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const over = await callTool(alice, "stake_from_wallet", { model: "alice-model", amount_usdc: 100 });
    expect(over.isError).toBe(true);
    const rest = await s.post("/api/v1/staking/stake", { model_id: "alice-model", amount_usdc: 100 }, ALICE);
    expect(over.json).toEqual(rest.json);
    expect(over.json.detail).toMatchObject({ code: "over_allowance", message: "stake of 100000000 micro exceeds your stake limit of 48750000 micro" });
    const unconfirmed = await mcpClient(s.url, { "X-API-Key": UNCONFIRMED });
    expect((await callTool(unconfirmed, "stake_from_wallet", { model: "x", amount_usdc: "1" })).json.detail.code).toBe("email_not_verified");
  });

  it("answers the legacy test-network tools with 410", async () => {
    const alice = await mcpClient(s.url, { "X-API-Key": ALICE });
    const relay = await callTool(alice, "stake_on_model", { model_id: "alice-model", amount_usdc: 1 });
    expect(relay).toMatchObject({ isError: true, json: { detail: { code: "forwarder_path_retired" } } });
    const address = await callTool(alice, "get_deposit_address");
    expect(address).toMatchObject({ isError: true, json: { detail: { code: "no_deposit_address" } } });
  });
});
