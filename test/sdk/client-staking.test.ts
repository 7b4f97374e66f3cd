import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { BasecampClient } from "../../src/sdk/client.js";
import { ALICE, stakingScenario } from "../helpers/staking-scenario.js";

let server: RunningServer;
afterAll(() => server.close());

describe("the SDK's staking methods against basecamp serve", () => {
  it("stakes, reads the allowance and the stake policy, and throws the service's refusal", async () => {
    server = await startServer({ scenario: stakingScenario(), port: 0, clock: "manual", log: () => {} });
    const alice = new BasecampClient({ baseUrl: server.url, apiKey: ALICE });
    await alice.createModel({ name: "alice-model" });
    const placed = await alice.stakeFromWallet({ model_id: "alice-model", amount_usdc: "3" });
    expect(placed).toMatchObject({ amount_micro: 3_000_000, status: "pending" });
    await expect(alice.getStakeAllowance()).resolves.toMatchObject({ staked_micro: 3_000_000, remaining_micro: 47_000_000 });
    await expect(alice.getStake(placed.model_id)).resolves.toMatchObject({ model: "alice-model", stakes: [{ stake_id: placed.stake_id }] });
    await expect(alice.stakeFromWallet({ model_id: "alice-model", amount_usdc: "1.2345678" })).rejects.toMatchObject({
      status: 400,
      code: "stake_principal_invalid",
      message: "Stake principal must be a finite dollar amount",
    });
  });
});
