import { z } from "zod";
import type { Frame } from "../../src/domain/frame.js";
import { ridgeParams, ridgePredict } from "./builtin.js";
import { eventModel, uploadOf } from "./event-upload.js";
import type { AgentContext, RoundSlot, Strategy } from "./strategy.js";
import { withinSlot } from "./timing.js";
import { usdcString } from "../../src/contract/deployment.js";
import { uniformRanks } from "../../src/data/ranks.js";

type RidgeParams = z.infer<typeof ridgeParams>;

/** The split an event agent predicts in a slot: validation in the build phase, the round's live split after. */
function splitOf(slot: RoundSlot): "validation" | "live" {
  return slot.index === 0 ? "validation" : "live";
}

async function ridgeOn(ctx: AgentContext, split: string, p: RidgeParams): Promise<{ frame: Frame; values: Float64Array }> {
  const frame = await ctx.client.downloadDataset(split);
  return { frame, values: await ridgePredict(ctx, frame, p) };
}

const stakingRidgeParams = ridgeParams.extend({
  /** A stake drafted on the model after each round upload (a decimal USDC string); none when absent. */
  stake_usdc: usdcString.optional(),
});

/**
 * A ridge that rehearses on the practice board in the build phase, then files one upload per round
 * and, given `stake_usdc`, drafts that stake on it for the round (drafting comes after submitting).
 */
const eventRidge: Strategy<z.infer<typeof stakingRidgeParams>> = {
  name: "event_ridge",
  kind: "event",
  summary: "practice board in the build phase, then one round-lane upload per round (ridge on train); stakes stake_usdc on it when given",
  params: stakingRidgeParams,
  actAt: (slot, _p, rng) => withinSlot(slot, rng, 0.1, 0.5),
  act: async (ctx, slot, p) => {
    const model = await eventModel(ctx);
    const { frame, values } = await ridgeOn(ctx, splitOf(slot), p);
    const input = uploadOf(model, frame.ids, values);
    const run = slot.index === 0 ? await ctx.client.uploadPractice(input) : await ctx.client.uploadRound(input);
    ctx.log(`filed ${run.upload_id} on the ${run.lane} lane (${run.uploads_remaining ?? "uncapped"} uploads left)`);
    if (slot.index === 0 || p.stake_usdc === undefined) return;
    const draft = await ctx.client.setStakeAllocation({ model, amount_usdc: p.stake_usdc, window: slot.exped });
    ctx.log(`drafted ${draft.amount_micro} micro on ${model} for ${draft.window} (${draft.spendable_micro} micro left to draft)`);
  },
};

/**
 * Files an event_ridge's exact file later in each round, as if it had copied it: dedup refuses it
 * (409 predictions_already_filed) and charges nothing.
 */
const copier: Strategy<RidgeParams> = {
  ...eventRidge,
  params: ridgeParams,
  name: "copier",
  summary: "files another ridge agent's exact predictions later in the round (refused by dedup, charged nothing)",
  actAt: (slot, _p, rng) => withinSlot(slot, rng, 0.6, 0.9),
  act: async (ctx, slot, p) => {
    if (slot.index === 0) return;
    const model = await eventModel(ctx);
    const { frame, values } = await ridgeOn(ctx, "live", p);
    await ctx.client.uploadRound(uploadOf(model, frame.ids, values));
  },
};

/** Sends round predictions down the practice lane: accepted with 202, failed minutes later (0 ids matched). */
const wrongLane: Strategy<RidgeParams> = {
  ...eventRidge,
  params: ridgeParams,
  name: "wrong_lane",
  summary: "sends its round predictions down the practice lane (accepted, then fails: no ids overlap)",
  act: async (ctx, slot, p) => {
    if (slot.index === 0) return;
    const model = await eventModel(ctx);
    const { frame, values } = await ridgeOn(ctx, "live", p);
    const run = await ctx.client.uploadPractice(uploadOf(model, frame.ids, values));
    ctx.log(`filed ${run.upload_id} on the practice lane by mistake`);
  },
};

const burnerParams = ridgeParams.extend({ models: z.int().min(1).max(25).default(3) });

/**
 * Files a variant with each of several models every round, until the pool runs out: the pool counts
 * across all models and rounds and never refills.
 */
const poolBurner: Strategy<z.infer<typeof burnerParams>> = {
  name: "pool_burner",
  kind: "event",
  summary: "files a variant with each of `models` models every round until the upload pool is spent",
  params: burnerParams,
  actAt: (slot, _p, rng) => withinSlot(slot, rng, 0.1, 0.5),
  act: async (ctx, slot, p) => {
    if (slot.index === 0) return;
    const { frame, values } = await ridgeOn(ctx, "live", p);
    for (let m = 1; m <= p.models; m++) {
      const model = await eventModel(ctx, `${ctx.model}-${m}`);
      const variant = uniformRanks(Float64Array.from(values, (v) => v + 0.05 * ctx.rng.normal()));
      const run = await ctx.client.uploadRound(uploadOf(model, frame.ids, variant));
      ctx.log(`filed ${run.upload_id}; ${run.uploads_remaining} uploads left`);
    }
  },
};

/** Uploads on the round lane while intake is fenced (the build phase, each round boundary): 409 with Retry-After. */
const fenceJumper: Strategy<RidgeParams> = {
  ...eventRidge,
  params: ridgeParams,
  name: "fence_jumper",
  summary: "uploads on the round lane during the build phase and each boundary (refused: cadence fence)",
  actAt: (slot, _p, rng) => (slot.index === 0 ? withinSlot(slot, rng, 0.5, 0.9) : slot.close_at + (1 + rng.int(60)) * 1000),
  act: async (ctx, _slot, p) => {
    const model = await eventModel(ctx);
    const { frame, values } = await ridgeOn(ctx, "train", p);
    await ctx.client.uploadRound(uploadOf(model, frame.ids.slice(0, 100), values.slice(0, 100)));
  },
};

export const eventStrategies: Strategy<any>[] = [eventRidge, copier, wrongLane, poolBurner, fenceJumper];
