import type { Scenario } from "../../sim/scenario.js";
import { smallScenario } from "./small-scenario.js";

export const ALICE = "key-alice-0001";
export const BOB = "key-bob-00000002";
export const NOPASS = "key-nopass-00003";
export const UNCONFIRMED = "key-unconf-00004";
export const EVE = "key-eve-00000007";
export const LLM = "key-llm-00000008";

/**
 * The small tournament with staking agents: alice (allowance 50 USDC) and bob (defaults), nopass
 * (a wallet without a passkey), unconfirmed (e-mail not confirmed), an event key and an LLM key.
 */
export function stakingScenario(overrides: Record<string, unknown> = {}): Scenario {
  return smallScenario({
    agents: [
      { name: "alice", key: ALICE, strategy: "ridge", wallet: { allowance_micro: 50_000_000 } },
      { name: "bob", key: BOB, strategy: "ridge" },
      { name: "nopass", key: NOPASS, strategy: "ridge", wallet: { passkey: false } },
      { name: "unconfirmed", key: UNCONFIRMED, strategy: "ridge", email_confirmed: false },
      { name: "eve", key: EVE, scope: "event", strategy: "random" },
      { name: "lou", key: LLM, scope: "llm", strategy: "random" },
    ],
    ...overrides,
  });
}
