import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { payoutFactor } from "../../../scoring/payout.js";
import { stakingTerms } from "./terms.js";

/**
 * Locks a round window's drafts as the round closes (inside the close step's transaction): a lock
 * is immutable, and the window's payout factor is frozen from its locked total.
 */
export function lockWindow(ctx: ServiceContext, window: string, t: number): void {
  const terms = stakingTerms(ctx);
  if (!terms) return;
  const drafts = ctx.db
    .prepare("SELECT model_id, agent_id, amount_micro FROM stake_allocations WHERE window = ? AND status = 'draft' ORDER BY model_id")
    .all(window) as { model_id: string; agent_id: string; amount_micro: number }[];
  const total = drafts.reduce((sum, d) => sum + d.amount_micro, 0);
  const factor = payoutFactor(total, terms.threshold_micro);
  ctx.db.prepare("UPDATE stake_allocations SET status = 'locked', locked_at = ? WHERE window = ? AND status = 'draft'").run(t, window);
  ctx.db
    .prepare("INSERT INTO stake_windows (window, locked_at, total_locked_micro, payout_factor, stake_return_amplitude) VALUES (?, ?, ?, ?, ?)")
    .run(window, t, total, factor, terms.stake_return_amplitude);
  appendEvent(ctx.db, t, "stake.locked", {
    window,
    total_locked_micro: total,
    payout_factor: factor,
    stake_return_amplitude: terms.stake_return_amplitude,
    allocations: drafts,
  });
}
