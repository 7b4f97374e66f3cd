import { passes, refuse } from "../../../domain/errors.js";
import { requireConfirmedEmail, type Principal } from "../../kernel/auth.js";
import { deploymentAgent } from "../../kernel/deployment.js";
import type { ServiceContext } from "../../kernel/context.js";
import { stakingTerms, type StakingTerms } from "./terms.js";

/**
 * Refuses a caller who is not enrolled in the event: an LLM-scoped key, a tournament key, or any key
 * on a deployment that runs no event. Practice keys are enrolled (they may read), without staking.
 */
export function requireEventParticipant(ctx: ServiceContext, p: Principal, what: string): void {
  if (p.scope === "llm") throw refuse("llm_scope_only", { what });
  if (ctx.world.deployment.kind !== "event" || p.scope === "tournament") throw refuse("not_event_participant");
}

/**
 * Who may draft or withdraw an allocation, in the order the checks run: an event participant,
 * whose enrollment carries the event-staking capability (practice keys never do), with a confirmed
 * e-mail (spec, Authentication 7), on an event that has staking configured.
 */
export function requireStaker(ctx: ServiceContext, p: Principal, what: string): StakingTerms {
  requireEventParticipant(ctx, p, what);
  if (p.scope !== "event" || !deploymentAgent(ctx, p.agent)?.event_staking) throw refuse("no_staking_capability");
  requireConfirmedEmail(p);
  const terms = stakingTerms(ctx);
  if (!terms) throw refuse("no_staking_configured");
  return terms;
}

/** Whether `p` passes every staker check (`get_started`'s `can_stake`): the same rules, not a copy. */
export function canStake(ctx: ServiceContext, p: Principal): boolean {
  return passes(() => requireStaker(ctx, p, "set_stake_allocation"));
}
