import type { LegacyStakingTool } from "../../service/tournament/staking/legacy.js";
import { route } from "../route.js";

const stakeRefusals = {
  400: "Stake principal must be a finite dollar amount",
  403: "E-mail not verified | Cannot stake on a benchmark model | Model does not belong to this agent | Scope restricted",
  404: "Model not found | No model '{name}'. Create it first with create_model.",
  409: "Your wallet has no passkey. | stake of {amount} micro exceeds your stake limit of {limit} micro (over_allowance) | This round can't take that amount right now. (round_full) | no_round_to_stake",
  503: "Chain RPC unavailable",
};

/** A legacy test-network path of the deposit-forwarder flow: 410 on this real-money deployment. */
function legacy(method: "GET" | "POST", path: string, tool: LegacyStakingTool) {
  const code = tool === "get_deposit_address" || tool === "get_forwarder_balance" ? "no_deposit_address" : "forwarder_path_retired";
  return route({
    method,
    path,
    operationId: tool,
    summary: `Legacy test-network ${tool}: retired here (410 ${code}); use POST /api/v1/staking/stake`,
    key: "required",
    responses: { 410: `${code}: the message points at stake_from_wallet` },
    handle: async ({ service, key }) => service.legacyStaking(key, tool),
  });
}

/** Tournament staking from the linked wallet (Basecamp's paths: the spec shows none), and the retired forwarder paths. */
export const stakingRoutes = [
  route({
    method: "POST",
    path: "/api/v1/staking/stake",
    operationId: "stake_from_wallet",
    summary: "Stakes a principal from the caller's wallet on one of its models for the open round; locks at the round's close",
    key: "required",
    body: "StakeBody",
    responses: { 201: "StakeResult {stake_id, model_id, model, exped, amount_micro, principal_micro, status, locks_at, resolves_at, remaining_micro}", ...stakeRefusals },
    handle: async ({ c, service, key, body }) => c.json(await service.stakeFromWallet(key, body), 201),
  }),
  route({
    method: "GET",
    path: "/api/v1/staking/allowance",
    operationId: "get_stake_allowance",
    summary: "The stake limit in micro: base_allowance_micro, earned_micro, allowance_micro, staked_micro, remaining_micro, settled_micro, passkey",
    key: "required",
    responses: { 200: "StakeAllowance" },
    handle: async ({ c, service, key }) => c.json(await service.getStakeAllowance(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/staking/models/{model}",
    operationId: "get_stake",
    summary: "One model's stake policy: every round it is or was staked on, with payout factor, score and payout",
    key: "required",
    responses: {
      200: "StakePolicy {model_id, model, staked_micro, earned_micro, stakes:[…]}",
      403: "Cannot stake on a benchmark model | Model does not belong to this agent",
      404: "No stake policy set for this model | Model not found | No model '{name}'. Create it first with create_model.",
    },
    handle: async ({ c, service, key }) => c.json(await service.getStake(key, c.req.param("model") as string)),
  }),
  legacy("GET", "/api/v1/staking/deposit-address", "get_deposit_address"),
  legacy("GET", "/api/v1/staking/forwarder-balance", "get_forwarder_balance"),
  legacy("POST", "/api/v1/staking/relay-stake", "relay_stake"),
  legacy("POST", "/api/v1/staking/relay-claim", "relay_claim"),
  legacy("POST", "/api/v1/staking/withdraw", "withdraw_usdc"),
];
