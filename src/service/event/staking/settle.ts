import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { unsealsAt } from "../sealing.js";
import { eventPayout } from "../../../scoring/payout.js";
import { lockedStakes, settleWindowRows, stakeWindow, unsettledWindows, type StakeWindowRow } from "../../../store/event-stakes.js";

/** A locked window whose results unseal at `t`: its stakes settle back to the event deposits then. */
export interface StakeSettlementStep {
  t: number;
  stake_window: string;
}

/** Locked windows not settled yet whose results are out by `now`. */
export function dueStakeSettlements(ctx: ServiceContext, now: number): StakeSettlementStep[] {
  return unsettledWindows(ctx.db)
    .map((window) => ({ t: unsealsAt(ctx, window), stake_window: window }))
    .filter((s) => s.t <= now)
    .sort((a, b) => a.t - b.t);
}

/**
 * Settles a window as its results unseal: each locked stake pays `stake · A·tanh(pf·score/A)` on
 * its model's latest finalised round-lane score in the window. A stake whose model has no scored
 * run by then (failed, or still scoring) pays 0: it is returned as it was.
 */
export function settleStakeWindow(ctx: ServiceContext, { t, stake_window }: StakeSettlementStep): void {
  const w = stakeWindow(ctx.db, stake_window) as StakeWindowRow;
  const stakes = lockedStakes(ctx.db, stake_window);
  const settlements = stakes.map((s) => ({
    ...s,
    payout_micro: s.score === null ? 0 : eventPayout(s.amount_micro, s.score, w.payout_factor, w.stake_return_amplitude),
    note: s.score === null ? `no scored run in ${stake_window}: the stake is returned` : null,
  }));
  inTransaction(ctx.db, () => {
    settleWindowRows(ctx.db, stake_window, t, settlements);
    appendEvent(ctx.db, t, "stake.settled", { window: stake_window, payout_factor: w.payout_factor, settlements });
  });
}
