import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { legacyStakingTools } from "../service/tournament/staking/legacy.js";
import { addTool, type ToolContext } from "./tool.js";

const modelRef = z.string().describe("Your model's id (mdl_…) or name");

/** Legacy arguments, all optional: the tools answer 410 whatever they are given. */
const legacyArgs = {
  model_id: z.string().optional(),
  amount_usdc: z.union([z.string(), z.number()]).optional(),
  round_id: z.union([z.string(), z.number()]).optional(),
  to_address: z.string().optional(),
};

/** Tournament staking from the linked wallet, and the retired test-network tools. */
export function registerStakingTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "stake_from_wallet",
    description:
      "Stakes a principal from your linked wallet on one of your models for the round open now. amount_usdc is dollars as a " +
      'decimal string ("2.5") or a number, at most 6 decimals. The stake locks at the round\'s close (payout factor frozen then) ' +
      "and is paid when the round resolves: trunc(principal × clamp(score × payout_factor, ±payout_cap)). Needs a tournament " +
      "key and a confirmed e-mail; refusals name the stake limit in micro (over_allowance) and the shared room (round_full).",
    input: { model: modelRef, amount_usdc: z.union([z.string(), z.number()]).describe("The principal in dollars") },
    run: ({ model, amount_usdc }) => service.stakeFromWallet(key, { model_id: model, amount_usdc }),
  });
  addTool(server, log, {
    name: "get_stake_allowance",
    description:
      "Your stake limit in micro USDC (1 USDC = 1 000 000): base_allowance_micro, earned_micro (payouts so far), " +
      "allowance_micro (base + earned), staked_micro (in unscored rounds), remaining_micro (what a new stake may take), " +
      "settled_micro, and whether your wallet has a passkey.",
    input: {},
    readOnly: true,
    run: () => service.getStakeAllowance(key),
  });
  addTool(server, log, {
    name: "get_stake",
    description:
      "One model's stake policy: every round it is or was staked on, with status (pending, locked, paid, returned), " +
      "principal_micro, payout_factor, score and payout_micro. A model never staked on answers 404.",
    input: { model: modelRef },
    readOnly: true,
    run: ({ model }) => service.getStake(key, model),
  });
  for (const tool of legacyStakingTools) {
    addTool(server, log, {
      name: tool,
      description: "Legacy test-network tool of the deposit-forwarder path. This deployment is real money: it answers 410 and points at stake_from_wallet.",
      input: legacyArgs,
      run: () => service.legacyStaking(key, tool),
    });
  }
}
