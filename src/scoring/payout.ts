/**
 * The payout maps. The tournament's (public facts §4, "Payout maps"): the round score times the round's
 * payout factor, capped at ±payout_cap of the stake.
 *
 *   payout_factor = min(1, threshold / total)   (1 while the round's total locked stake is at most
 *                                                the threshold; shrinking as more stake piles in)
 *   payout_micro  = trunc(principal × clamp(score × payout_factor, −payout_cap, +payout_cap))
 *
 * Micro units are whole, and the payout is truncated toward zero rather than rounded, so it never
 * exceeds payout_cap × principal in absolute value.
 */
export function payoutFactor(totalLockedMicro: number, thresholdMicro: number): number {
  return totalLockedMicro <= thresholdMicro ? 1 : thresholdMicro / totalLockedMicro;
}

export function tournamentPayout(principalMicro: number, score: number, factor: number, payoutCap: number): number {
  const rate = Math.min(payoutCap, Math.max(-payoutCap, score * factor));
  // `+ 0` turns a −0 into 0, so a zero payout logs as 0.
  return Math.trunc(principalMicro * rate) + 0;
}

/**
 * The event payout map (public facts, "Payout maps"): a staked model's return for a window is
 * `A · tanh(payout_factor · score / A)` of its stake, with `A` the window's `stake_return_amplitude`.
 * It is monotone in the score, so it never reorders models, and bounded by ±A.
 */
export function eventReturn(score: number, factor: number, amplitude: number): number {
  return amplitude * Math.tanh((factor * score) / amplitude);
}

/** An event stake's payout in micro, truncated toward zero like the tournament's, so never beyond A × stake. */
export function eventPayout(stakeMicro: number, score: number, factor: number, amplitude: number): number {
  return Math.trunc(stakeMicro * eventReturn(score, factor, amplitude)) + 0;
}
