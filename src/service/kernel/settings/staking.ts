import { refuse } from "../../../domain/errors.js";
import { deploymentAgent } from "../deployment.js";
import type { ServiceContext } from "../context.js";

/**
 * A tournament deployment's staking settings (scenario block `staking`). Basecamp's own numbers:
 * the real service publishes none of them.
 */
export interface StakingSettings {
  /** A payout is capped at ±payout_cap × the stake (`A` of the payout map). */
  payout_cap: number;
  /** Total locked stake of a round up to which its payout factor is 1; above it, threshold / total. */
  payout_factor_threshold_micro: number;
  /** Room for stakes shared by every unscored round (pending or locked); beyond it, `round_full`. */
  round_capacity_micro: number;
}

export const defaultStakingSettings: StakingSettings = {
  payout_cap: 0.25,
  payout_factor_threshold_micro: 10_000 * 1_000_000,
  round_capacity_micro: 100_000 * 1_000_000,
};

/** An agent's linked wallet (scenario `agents[].wallet`). */
export interface WalletSettings {
  /** A wallet without a passkey cannot sign a stake: 409 `Your wallet has no passkey.` */
  passkey: boolean;
  /** The stake limit before any payout: stakes in unscored rounds may total this plus earnings. */
  allowance_micro: number;
}

export const defaultWallet: WalletSettings = { passkey: true, allowance_micro: 100 * 1_000_000 };

export function stakingSettings(ctx: ServiceContext): StakingSettings {
  return ctx.world.deployment.staking ?? defaultStakingSettings;
}

export function walletOf(ctx: ServiceContext, agent: string): WalletSettings {
  return deploymentAgent(ctx, agent)?.wallet ?? defaultWallet;
}

/** Tournament staking exists on a tournament deployment only; an event's is another product. */
export function requireTournamentStaking(ctx: ServiceContext): void {
  if (ctx.world.deployment.kind !== "tournament") throw refuse("not_found", { what: "this deployment runs no tournament staking" });
}
