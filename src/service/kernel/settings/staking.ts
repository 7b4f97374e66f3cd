import { defaultStakingSettings, defaultWallet, type StakingSettings, type WalletSettings } from "../../../contract/deployment.js";
import { refuse } from "../../../domain/errors.js";
import type { ServiceContext } from "../context.js";
import { deploymentAgent } from "../deployment.js";

export { defaultStakingSettings, defaultWallet, type StakingSettings, type WalletSettings } from "../../../contract/deployment.js";

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
