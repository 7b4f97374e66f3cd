import type { ServiceContext } from "../../kernel/context.js";
import type { StakingTerms } from "./terms.js";
import { draftedMicro, lockedMicro, settledMicro } from "../../../store/event-stakes.js";

/** An agent's event deposit, in micro. */
export interface Balance {
  /** The platform-granted starting stake. */
  principal_micro: number;
  /** Sum of settled payouts (negative when stakes lost). */
  settled_micro: number;
  /** principal + settled. */
  net_micro: number;
  /** Locked allocations whose window has not settled yet. */
  locked_micro: number;
}

export function balanceOf(ctx: ServiceContext, terms: StakingTerms, agentId: string): Balance {
  const settled = settledMicro(ctx.db, agentId);
  const locked = lockedMicro(ctx.db, agentId);
  return { principal_micro: terms.starting_micro, settled_micro: settled, net_micro: terms.starting_micro + settled, locked_micro: locked };
}

/**
 * What a new draft on `modelId` can take: the balance minus unsettled locks and the agent's other
 * drafts in the window (`window` null, outside a draft window: no drafts, so the balance minus locks).
 */
export function spendableFor(ctx: ServiceContext, balance: Balance, agentId: string, window: string | null, modelId: string | null): number {
  const drafted = draftedMicro(ctx.db, agentId, window, modelId);
  return balance.net_micro - balance.locked_micro - drafted;
}
