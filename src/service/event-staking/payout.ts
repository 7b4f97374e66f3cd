/**
 * The event payout map (public facts, "Payout maps"): a staked model's return for a window is
 * `A · tanh(payout_factor · score / A)` of its stake, with `A` the window's `stake_return_amplitude`.
 * The map is monotone in the score, so it never reorders models, and it is bounded by ±A.
 */
export function eventReturn(score: number, payoutFactor: number, amplitude: number): number {
  return amplitude * Math.tanh((payoutFactor * score) / amplitude);
}

/** The payout in micro of a stake whose model scored `score`; rounded half away from zero to the micro. */
export function eventPayoutMicro(stakeMicro: number, score: number, payoutFactor: number, amplitude: number): number {
  const x = stakeMicro * eventReturn(score, payoutFactor, amplitude);
  return Math.sign(x) * Math.round(Math.abs(x));
}

/**
 * 1 while a window's total locked stake is under the threshold, shrinking as more stake piles in
 * (threshold / total above it); frozen when the window locks.
 */
export function payoutFactor(totalLockedMicro: number, thresholdMicro: number): number {
  return totalLockedMicro <= thresholdMicro ? 1 : thresholdMicro / totalLockedMicro;
}
