import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { payoutFactor } from "../../../scoring/payout.js";
import { stakingTerms } from "./terms.js";
import { draftsIn, lockWindowRows } from "../../../store/event-stakes.js";

/**
 * Locks a round window's drafts as the round closes (inside the close step's transaction): a lock
 * is immutable, and the window's payout factor is frozen from its locked total.
 */
export function lockWindow(ctx: ServiceContext, window: string, t: number): void {
  const terms = stakingTerms(ctx);
  if (!terms) return;
  const drafts = draftsIn(ctx.db, window);
  const total = drafts.reduce((sum, d) => sum + d.amount_micro, 0);
  const factor = payoutFactor(total, terms.threshold_micro);
  lockWindowRows(ctx.db, window, t, total, factor, terms.stake_return_amplitude);
  appendEvent(ctx.db, t, "stake.locked", {
    window,
    total_locked_micro: total,
    payout_factor: factor,
    stake_return_amplitude: terms.stake_return_amplitude,
    allocations: drafts,
  });
}
