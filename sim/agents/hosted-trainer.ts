import { createHash } from "node:crypto";
import { z } from "zod";
import { localIsolation } from "../../src/participant/isolation.js";
import { runPredict } from "../../src/participant/run-predict.js";
import type { JobView } from "../../src/service/compute/job-view.js";
import { eventModel, uploadWith } from "./event-upload.js";
import type { Strategy } from "./strategy.js";
import { withinSlot } from "./timing.js";

const trainerParams = z.strictObject({
  /** What to ask hosted compute for; lightgbm where the training Python cannot import it shows the refusal. */
  model: z.string().default("ridge"),
  gpu: z.enum(["CPU", "T4", "A10G", "A100"]).default("CPU"),
  features: z.union([z.enum(["all", "small"]), z.array(z.string()).min(1)]).default("all"),
  /** The job's `params` (the kind's hyperparameters and `seed`), as the service reads them; its defaults when absent. */
  params: z.record(z.string(), z.unknown()).optional(),
  /** The job's `train_filter` (`exped.cutoff_lt`, `sample.fraction`), as the service reads it. */
  train_filter: z.record(z.string(), z.unknown()).optional(),
  /** model custom: the source defining build_model(params), as one string or its lines (joined with newlines). */
  custom_model_fn: z.union([z.string(), z.array(z.string())]).optional(),
});

export type TrainerParams = z.infer<typeof trainerParams>;

/** The train call's body: the fields the scenario gives, and none it leaves out. */
export function trainBody(p: TrainerParams): Record<string, unknown> {
  const source = Array.isArray(p.custom_model_fn) ? p.custom_model_fn.join("\n") : p.custom_model_fn;
  return {
    model: p.model,
    gpu: p.gpu,
    features: p.features,
    ...(p.params === undefined ? {} : { params: p.params }),
    ...(p.train_filter === undefined ? {} : { train_filter: p.train_filter }),
    ...(source === undefined ? {} : { custom_model_fn: source }),
  };
}

/** CPU seconds a predict run of the downloaded model may use on the agent's machine. */
const PREDICT_TIMEOUT_SECONDS = 60;

/**
 * An agent that trains on hosted compute: it launches a job early in the build phase, then in each
 * round downloads the finished model, runs it on the live split as its own machine would (Python),
 * and files the predictions on the round lane beside that very model file.
 */
const hostedTrainer: Strategy<TrainerParams> = {
  name: "hosted_trainer",
  kind: "event",
  summary: "trains a model (ridge by default) on hosted compute in the build phase, then files that model's predictions every round",
  params: trainerParams,
  actAt: (slot, _p, rng) => withinSlot(slot, rng, 0.05, 0.3),
  act: async (ctx, slot, p) => {
    if (slot.index === 0) {
      const job = (await ctx.client.train(trainBody(p))) as JobView;
      ctx.log(`launched ${job.job_id} (${p.model} on ${p.gpu}, hold ${job.hold_cents} cents)`);
      return;
    }
    const done = (await ctx.client.listJobs()).jobs.find((j) => j.status === "completed" && j.artifact.available);
    if (!done) {
      ctx.log("no trained model yet");
      return;
    }
    const pkl = await ctx.client.downloadModel(done.job_id);
    const live = await ctx.client.downloadDataset("live");
    const outcome = await runPredict({
      isolation: await localIsolation(),
      pkl,
      features: live,
      benchmark: { ids: live.ids, exped: live.exped, columns: {} },
      timeout_seconds: PREDICT_TIMEOUT_SECONDS,
    });
    if (!outcome.ok) {
      ctx.log(`the trained model did not predict: ${outcome.error}`);
      return;
    }
    const model = await eventModel(ctx);
    const file = { bytes: pkl, sha256: createHash("sha256").update(pkl).digest("hex"), python_version: done.trainer_python_version as string };
    const run = await ctx.client.uploadRound(uploadWith(file, model, outcome.ids, outcome.values));
    ctx.log(`filed ${run.upload_id} from hosted job ${done.job_id}`);
  },
};

export const computeStrategies: Strategy<any>[] = [hostedTrainer];
