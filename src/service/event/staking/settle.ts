import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { unsealsAt } from "../sealing.js";
import { eventPayout } from "../../../scoring/payout.js";

/** A locked window whose results unseal at `t`: its stakes settle back to the event deposits then. */
export interface StakeSettlementStep {
  t: number;
  stake_window: string;
}

/** Locked windows not settled yet whose results are out by `now`. */
export function dueStakeSettlements(ctx: ServiceContext, now: number): StakeSettlementStep[] {
  const windows = ctx.db.prepare("SELECT window FROM stake_windows WHERE settled_at IS NULL").all() as { window: string }[];
  return windows
    .map((w) => ({ t: unsealsAt(ctx, w.window), stake_window: w.window }))
    .filter((s) => s.t <= now)
    .sort((a, b) => a.t - b.t);
}

interface LockedStake {
  model_id: string;
  agent_id: string;
  amount_micro: number;
  score: number | null;
}

/**
 * Settles a window as its results unseal: each locked stake pays `stake · A·tanh(pf·score/A)` on
 * its model's latest finalised round-lane score in the window. A stake whose model has no scored
 * run by then (failed, or still scoring) pays 0: it is returned as it was.
 */
export function settleStakeWindow(ctx: ServiceContext, { t, stake_window }: StakeSettlementStep): void {
  const w = ctx.db.prepare("SELECT payout_factor, stake_return_amplitude FROM stake_windows WHERE window = ?").get(stake_window) as {
    payout_factor: number;
    stake_return_amplitude: number;
  };
  const stakes = ctx.db
    .prepare(
      `SELECT a.model_id, a.agent_id, a.amount_micro,
         (SELECT u.score FROM uploads u WHERE u.model_id = a.model_id AND u.lane = 'round' AND u.round_window = a.window
            AND u.status = 'finalised' AND u.score IS NOT NULL ORDER BY u.seq DESC LIMIT 1) AS score
       FROM stake_allocations a WHERE a.window = ? AND a.status = 'locked' ORDER BY a.model_id`,
    )
    .all(stake_window) as LockedStake[];
  const settlements = stakes.map((s) => ({
    ...s,
    payout_micro: s.score === null ? 0 : eventPayout(s.amount_micro, s.score, w.payout_factor, w.stake_return_amplitude),
    note: s.score === null ? `no scored run in ${stake_window}: the stake is returned` : null,
  }));
  inTransaction(ctx.db, () => {
    const insert = ctx.db.prepare(
      `INSERT INTO stake_settlements (model_id, window, agent_id, amount_micro, score, payout_micro, settled_at, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const s of settlements) insert.run(s.model_id, stake_window, s.agent_id, s.amount_micro, s.score, s.payout_micro, t, s.note);
    ctx.db.prepare("UPDATE stake_windows SET settled_at = ? WHERE window = ?").run(t, stake_window);
    appendEvent(ctx.db, t, "stake.settled", { window: stake_window, payout_factor: w.payout_factor, settlements });
  });
}
