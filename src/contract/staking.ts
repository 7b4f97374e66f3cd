import { z } from "zod";
import { operation, type RestRoute } from "./operation.js";

/** The test-network tools of the deposit-forwarder staking path, retired where money is real. */
export const legacyStakingTools = ["stake_on_model", "relay_stake", "relay_claim", "withdraw_usdc", "get_deposit_address", "get_forwarder_balance"] as const;

export type LegacyStakingTool = (typeof legacyStakingTools)[number];

const stakeRefusals = {
  400: "Stake principal must be a finite dollar amount",
  403: "E-mail not verified | Cannot stake on a benchmark model | Model does not belong to this agent | Scope restricted",
  404: "Model not found | No model '{name}'. Create it first with create_model.",
  409: "Your wallet has no passkey. | stake of {amount} micro exceeds your stake limit of {limit} micro (over_allowance) | This round can't take that amount right now. (round_full) | no_round_to_stake",
  503: "Chain RPC unavailable",
};

const modelRef = z.string().describe("Your model's id (mdl_…) or name");

/** A legacy test-network path of the deposit-forwarder flow: 410 on this real-money deployment. */
function legacyRoute(method: "GET" | "POST", path: string, tool: LegacyStakingTool): RestRoute {
  const code = tool === "get_deposit_address" || tool === "get_forwarder_balance" ? "no_deposit_address" : "forwarder_path_retired";
  return {
    method,
    path,
    operationId: tool,
    summary: `Legacy test-network ${tool}: retired here (410 ${code}); use POST /api/v1/staking/stake`,
    fixed: [tool],
    responses: { 410: `${code}: the message points at stake_from_wallet` },
  };
}

/** Legacy arguments, all optional: the tools answer 410 whatever they are given. */
const legacyArgs = {
  model_id: z.string().optional(),
  amount_usdc: z.union([z.string(), z.number()]).optional(),
  round_id: z.union([z.string(), z.number()]).optional(),
  to_address: z.string().optional(),
};

/** Tournament staking from the linked wallet (Basecamp's paths: the spec shows none), and the retired forwarder paths. */
export const stakingOperations = {
  stakeFromWallet: operation({
    scope: "key",
    rate: "stake_from_wallet",
    rest: [
      {
        method: "POST",
        path: "/api/v1/staking/stake",
        operationId: "stake_from_wallet",
        summary: "Stakes a principal from the caller's wallet on one of its models for the open round; locks at the round's close",
        body: "StakeBody",
        status: 201,
        responses: { 201: "StakeResult {stake_id, model_id, model, exped, amount_micro, principal_micro, status, locks_at, resolves_at, remaining_micro}", ...stakeRefusals },
      },
    ],
    mcp: [
      {
        name: "stake_from_wallet",
        description:
          "Stakes a principal from your linked wallet on one of your models for the round open now. amount_usdc is dollars as a " +
          'decimal string ("2.5") or a number, at most 6 decimals. The stake locks at the round\'s close (payout factor frozen then) ' +
          "and is paid when the round resolves: trunc(principal × clamp(score × payout_factor, ±payout_cap)). Needs a tournament " +
          "key and a confirmed e-mail; refusals name the stake limit in micro (over_allowance) and the shared room (round_full).",
        input: { model: modelRef, amount_usdc: z.union([z.string(), z.number()]).describe("The principal in dollars") },
        args: (a) => [{ model_id: a.model, amount_usdc: a.amount_usdc }],
      },
    ],
  }),
  getStakeAllowance: operation({
    scope: "key",
    rate: "get_stake_allowance",
    rest: [
      {
        method: "GET",
        path: "/api/v1/staking/allowance",
        operationId: "get_stake_allowance",
        summary: "The stake limit in micro: base_allowance_micro, earned_micro, allowance_micro, staked_micro, remaining_micro, settled_micro, passkey",
        responses: { 200: "StakeAllowance" },
      },
    ],
    mcp: [
      {
        name: "get_stake_allowance",
        description:
          "Your stake limit in micro USDC (1 USDC = 1 000 000): base_allowance_micro, earned_micro (payouts so far), " +
          "allowance_micro (base + earned), staked_micro (in unscored rounds), remaining_micro (what a new stake may take), " +
          "settled_micro, and whether your wallet has a passkey.",
        input: {},
        readOnly: true,
      },
    ],
  }),
  getStake: operation({
    scope: "key",
    rate: "get_stake",
    rest: [
      {
        method: "GET",
        path: "/api/v1/staking/models/{model}",
        operationId: "get_stake",
        summary: "One model's stake policy: every round it is or was staked on, with payout factor, score and payout",
        responses: {
          200: "StakePolicy {model_id, model, staked_micro, earned_micro, stakes:[…]}",
          403: "Cannot stake on a benchmark model | Model does not belong to this agent",
          404: "No stake policy set for this model | Model not found | No model '{name}'. Create it first with create_model.",
        },
      },
    ],
    mcp: [
      {
        name: "get_stake",
        description:
          "One model's stake policy: every round it is or was staked on, with status (pending, locked, paid, returned), " +
          "principal_micro, payout_factor, score and payout_micro. A model never staked on answers 404.",
        input: { model: modelRef },
        readOnly: true,
      },
    ],
  }),
  /** Each legacy tool counts against its own rate limit. */
  legacyStaking: operation({
    scope: "key",
    rate: ([tool]) => tool as string,
    client: false,
    rest: [
      legacyRoute("GET", "/api/v1/staking/deposit-address", "get_deposit_address"),
      legacyRoute("GET", "/api/v1/staking/forwarder-balance", "get_forwarder_balance"),
      legacyRoute("POST", "/api/v1/staking/relay-stake", "relay_stake"),
      legacyRoute("POST", "/api/v1/staking/relay-claim", "relay_claim"),
      legacyRoute("POST", "/api/v1/staking/withdraw", "withdraw_usdc"),
    ],
    mcp: legacyStakingTools.map((tool) => ({
      name: tool,
      description: "Legacy test-network tool of the deposit-forwarder path. This deployment is real money: it answers 410 and points at stake_from_wallet.",
      input: legacyArgs,
      args: () => [tool],
    })),
  }),
};
