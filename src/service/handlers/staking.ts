import { getStakeAllowance } from "../tournament/staking/allowance.js";
import { legacyStaking, type LegacyStakingTool } from "../tournament/staking/legacy.js";
import { stakePolicy } from "../tournament/staking/stake-policy.js";
import { stakeFromWallet, type StakeInput } from "../tournament/staking/wallet-stakes.js";
import type { Call } from "./call.js";

/** Tournament staking from the linked wallet, and the retired test-network tools. */
export const stakingHandlers = {
  /** A principal from the caller's wallet on one of its models, for the open round. */
  stakeFromWallet: (c: Call, input: StakeInput) => stakeFromWallet(c.ctx, c.principal, input),
  getStakeAllowance: (c: Call) => getStakeAllowance(c.ctx, c.principal),
  /** One model's stake policy: every round it is or was staked on. */
  getStake: (c: Call, model: string) => stakePolicy(c.ctx, c.principal, model),
  /** Always refused (410) on this real-money simulation. */
  legacyStaking: (c: Call, tool: LegacyStakingTool): never => legacyStaking(c.ctx, c.principal, tool),
};
