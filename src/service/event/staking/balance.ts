import type { ServiceContext } from "../../kernel/context.js";
import type { StakingTerms } from "./terms.js";

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
  const { settled } = ctx.db
    .prepare("SELECT COALESCE(SUM(payout_micro), 0) AS settled FROM stake_settlements WHERE agent_id = ?")
    .get(agentId) as { settled: number };
  const { locked } = ctx.db
    .prepare(
      `SELECT COALESCE(SUM(a.amount_micro), 0) AS locked FROM stake_allocations a
       LEFT JOIN stake_windows w ON w.window = a.window
       WHERE a.agent_id = ? AND a.status = 'locked' AND w.settled_at IS NULL`,
    )
    .get(agentId) as { locked: number };
  return { principal_micro: terms.starting_micro, settled_micro: settled, net_micro: terms.starting_micro + settled, locked_micro: locked };
}

/**
 * What a new draft on `modelId` can take: the balance minus unsettled locks and the agent's other
 * drafts in the window (`window` null, outside a draft window: no drafts, so the balance minus locks).
 */
export function spendableFor(ctx: ServiceContext, balance: Balance, agentId: string, window: string | null, modelId: string | null): number {
  const { drafted } = ctx.db
    .prepare(
      `SELECT COALESCE(SUM(amount_micro), 0) AS drafted FROM stake_allocations
       WHERE agent_id = ? AND window = ? AND status = 'draft' AND model_id IS NOT ?`,
    )
    .get(agentId, window, modelId) as { drafted: number };
  return balance.net_micro - balance.locked_micro - drafted;
}
