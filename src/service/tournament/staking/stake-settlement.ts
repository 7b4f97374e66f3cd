import { payoutFactor, tournamentPayout } from "../../../scoring/payout.js";
import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { roundByExped, type RoundRow } from "../../../store/rounds.js";
import { stakingSettings } from "../../kernel/settings/staking.js";
import { stakesOfRound, lockRoundStakes, settleStake } from "../../../store/stakes.js";
import { scoreOf } from "../../../store/scores.js";

/**
 * At a round's close (the daily close), its pending stakes lock and its payout factor is frozen
 * from the round's total locked stake. Runs inside the close step's transaction; a round with no
 * stakes logs nothing.
 */
export function lockStakes(ctx: ServiceContext, round: RoundRow, t: number): void {
  const stakes = stakesOfRound(ctx.db, round.exped, "pending");
  if (stakes.length === 0) return;
  const total = stakes.reduce((s, r) => s + r.principal_micro, 0);
  const factor = payoutFactor(total, stakingSettings(ctx).payout_factor_threshold_micro);
  lockRoundStakes(ctx.db, round.exped, t, factor);
  appendEvent(ctx.db, t, "stakes.locked", {
    exped: round.exped,
    total_locked_micro: total,
    payout_factor: factor,
    stakes: stakes.map((r) => ({ stake_id: r.id, model_id: r.model_id, principal_micro: r.principal_micro })),
  });
}

/**
 * Once a round has resolved, its locked stakes are paid by the payout map (src/scoring/payout.ts)
 * on the model's round score. A staked model with no entry in the round, and every stake of a
 * round that did not settle, is returned with payout 0 and a note saying why. Payouts move the
 * agent's earned total and with it the stake limit (src/service/tournament/staking/allowance.ts).
 */
export function settleStakes(ctx: ServiceContext, exped: string, t: number): void {
  const stakes = stakesOfRound(ctx.db, exped, "locked");
  if (stakes.length === 0) return;
  const round = roundByExped(ctx.db, exped) as RoundRow;
  const cap = stakingSettings(ctx).payout_cap;
  inTransaction(ctx.db, () => {
    const results = stakes.map((r) => {
      const entry = round.status === "settled" ? scoreOf(ctx.db, r.model_id, exped) : undefined;
      const entered = entry !== undefined;
      const note = round.status !== "settled" ? `the round did not settle: ${round.note}` : entered ? null : "the model has no entry in this round";
      const score = entry ?? null;
      const payout = entered ? tournamentPayout(r.principal_micro, entry, r.payout_factor as number, cap) : 0;
      settleStake(ctx.db, r.id, { status: entered ? "paid" : "returned", score, payout_micro: payout, settled_at: t, note });
      return { stake_id: r.id, model_id: r.model_id, principal_micro: r.principal_micro, score, payout_micro: payout, outcome: entered ? "paid" : "returned", note };
    });
    appendEvent(ctx.db, t, "stakes.settled", { exped, round_status: round.status, payout_cap: cap, payout_factor: stakes[0].payout_factor, results });
  });
}
