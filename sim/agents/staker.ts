import { z } from "zod";
import { ridgeParams, ridgePredict } from "./builtin.js";
import type { Strategy } from "./strategy.js";
import { submitRound } from "./submit-round.js";
import { duringWindow } from "./timing.js";
import { usdcString } from "../../src/contract/deployment.js";

const stakerParams = ridgeParams.extend({
  /** Dollars staked on the model each round it submits, as a decimal string. */
  stake_usdc: usdcString.default("5"),
});

/**
 * A ridge that backs its entry: after submitting, it stakes `stake_usdc` from its wallet on its
 * model for the open round. Refusals (no passkey, over its limit, a full round) go to the log.
 */
export const staker: Strategy<z.infer<typeof stakerParams>> = {
  name: "staker",
  kind: "tournament",
  summary: "ridge, then stakes stake_usdc from its wallet on its model each round",
  params: stakerParams,
  actAt: (slot, _p, rng) => duringWindow(slot, rng),
  act: async (ctx, _slot, p) => {
    await submitRound(ctx, (c, live) => ridgePredict(c, live, p));
    const placed = await ctx.client.stakeFromWallet({ model_id: ctx.model, amount_usdc: p.stake_usdc });
    ctx.log(`staked ${placed.amount_micro} micro (principal ${placed.principal_micro}, ${placed.remaining_micro} left)`);
  },
};
