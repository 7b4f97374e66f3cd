import { requireScope, type Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { requireTournamentStaking, walletOf } from "../../kernel/settings/staking.js";
import { agentTotals } from "../../../store/stakes.js";

/** The caller's stake limit and what is left of it (`get_stake_allowance`), all in micro USDC. */
export interface StakeAllowance {
  /** The wallet's allowance before any payout (scenario `agents[].wallet.allowance_micro`). */
  base_allowance_micro: number;
  /** Sum of the payouts of settled stakes (negative after losses). */
  earned_micro: number;
  /** The stake limit: base allowance plus earnings, never below 0. */
  allowance_micro: number;
  /** Principal in rounds not yet scored (taken in the open round or locked awaiting resolution). */
  staked_micro: number;
  /** What a new stake may take: allowance minus staked, never below 0. */
  remaining_micro: number;
  /** Principal of stakes whose round has been scored (paid) or that came back unscored (returned). */
  settled_micro: number;
  passkey: boolean;
}

/**
 * The stake limit is earned: it starts at the wallet's allowance and moves with every payout (a
 * gain raises it, a loss lowers it). Principal in unscored rounds counts against it until its
 * round resolves, when it is free again.
 */
export function stakeAllowance(ctx: ServiceContext, p: Principal): StakeAllowance {
  const wallet = walletOf(ctx, p.agent);
  const totals = agentTotals(ctx.db, p.agent_id);
  const allowance = Math.max(0, wallet.allowance_micro + totals.earned_micro);
  return {
    base_allowance_micro: wallet.allowance_micro,
    earned_micro: totals.earned_micro,
    allowance_micro: allowance,
    staked_micro: totals.staked_micro,
    remaining_micro: Math.max(0, allowance - totals.staked_micro),
    settled_micro: totals.settled_micro,
    passkey: wallet.passkey,
  };
}

/** `get_stake_allowance`: a read for tournament keys. */
export function getStakeAllowance(ctx: ServiceContext, p: Principal): StakeAllowance {
  requireTournamentStaking(ctx);
  requireScope(p, ["tournament"], "get_stake_allowance");
  return stakeAllowance(ctx, p);
}
