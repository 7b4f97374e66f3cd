import { z } from "zod";
import { ridgeParams, ridgePredict } from "./builtin.js";
import { samplePkl } from "./event-upload.js";
import type { AgentContext, Strategy } from "./strategy.js";
import { submitRound } from "./submit-round.js";
import { duringWindow } from "./timing.js";

/** data/samples/predict.pkl was saved by Debian's Python 3.11. */
const SAMPLE_PYTHON = "3.11";

/**
 * In the season's first round: registers the model (auto-submit is on by default on a tournament)
 * and uploads the sample predict callable for the lane. In every later round: notes what the lane
 * did for the model last.
 */
async function uploadOrWatch(ctx: AgentContext, round: number): Promise<void> {
  if (round === 1) {
    await ctx.client.createModel({ name: ctx.model });
    const upload = await ctx.client.uploadModel({
      model_id: ctx.model,
      file: { filename: "predict.pkl", bytes: samplePkl },
      python_version: SAMPLE_PYTHON,
    });
    ctx.log(`uploaded model file ${upload.upload_id} (${upload.status}, validates at ${upload.validates_at})`);
    return;
  }
  const status = await ctx.client.getUploadStatus(ctx.model);
  const last = status.last_auto_run;
  ctx.log(`lane ${status.lane_active ? "active" : "inactive"}; last auto-run: ${last ? `${last.exped} ${last.outcome}` : "none"}`);
}

/** Uploads a model file once and lets the auto-submit lane submit every round for it. */
const autoSubmitter: Strategy<Record<string, never>> = {
  name: "auto_submitter",
  kind: "tournament",
  summary: "uploads data/samples/predict.pkl in its first round; the auto-submit lane submits every round after",
  params: z.strictObject({}),
  actAt: (slot, _p, rng) => duringWindow(slot, rng),
  act: (ctx, slot) => uploadOrWatch(ctx, slot.index),
};

const manualParams = ridgeParams.extend({
  /** Chance, each round after the first, of submitting a ridge by hand over the lane's entry. */
  manual_probability: z.number().min(0).max(1).default(0.5),
});

/**
 * Like auto_submitter, but some rounds it also submits a ridge by hand, after the lane has run:
 * the manual submission replaces the auto entry (manual wins).
 */
const autoThenManual: Strategy<z.infer<typeof manualParams>> = {
  name: "auto_then_manual",
  kind: "tournament",
  summary: "auto_submitter that also submits a ridge by hand with probability manual_probability (manual wins)",
  params: manualParams,
  actAt: (slot, _p, rng) => duringWindow(slot, rng),
  act: async (ctx, slot, p) => {
    await uploadOrWatch(ctx, slot.index);
    if (slot.index > 1 && ctx.rng.next() < p.manual_probability) {
      ctx.log("submits a ridge by hand over the lane's entry");
      await submitRound(ctx, (c, live) => ridgePredict(c, live, p));
    }
  },
};

export const autoSubmitStrategies: Strategy<any>[] = [autoSubmitter, autoThenManual];
