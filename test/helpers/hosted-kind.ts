import { createHash } from "node:crypto";
import { expect } from "vitest";
import { selectColumns, type Frame } from "../../src/domain/frame.js";
import { fitLinear, predictLinear } from "../../src/data/least-squares.js";
import { DESIGNATED } from "../../src/data/schema.js";
import type { Isolation } from "../../src/participant/isolation.js";
import { runPredict } from "../../src/participant/run-predict.js";
import { scoreExped } from "../../src/scoring/exped.js";
import { cvFolds, presetColumns } from "../../src/service/compute/cv-plan.js";
import type { JobView } from "../../src/service/compute/job-view.js";
import type { TrainedModel } from "../../src/service/compute/model-kinds.js";
import { fitInSandbox } from "../../src/service/compute/python-fit.js";
import { getRun } from "../../src/service/event/runs.js";
import { uploadInline } from "../../src/service/event/uploads.js";
import { uploadWith } from "../../sim/agents/event-upload.js";
import { eventHarness } from "./event-harness.js";

const ANN = "key-ann-00000001";
const SECOND = 1000;

export type Harness = ReturnType<typeof eventHarness>;

/** Launches `body` on a small funded event whose model files (and so built-in kinds' fits) run as `isolation`, and moves past its end. */
export async function trained(body: Record<string, unknown>, isolation: Isolation): Promise<{ h: Harness; job: JobView }> {
  const h = eventHarness({ compute: { budget_usd: "5" } });
  h.ctx.modelIsolation = isolation;
  const job = (await h.service.train(ANN, { features: "all", ...body })) as JobView;
  expect(job.status).toBe("queued");
  await h.at(h.clock.now() + 300 * SECOND);
  return { h, job: await h.service.getJob(ANN, job.job_id) };
}

/** Mean and sample standard deviation, as the job's metrics state them. */
const meanStd = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, std: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) };
};

/** A ridge's held-out predictions, fitted on each fold's fitting rows as the preset reads them (NaN → 0.0). */
function ridgeOof(train: Frame, target: string, features: string[], alpha: number): Float64Array {
  const oof = new Float64Array(train.ids.length).fill(Number.NaN);
  for (const f of cvFolds(train)) {
    const y = train.columns[target];
    const labelled = f.fit_rows.filter((r) => Number.isFinite(y[r]));
    const model = fitLinear(presetColumns(train, features, labelled), Float64Array.from(labelled, (r) => y[r]), alpha * labelled.length);
    const rows = f.held.flatMap((e) => e.rows);
    predictLinear(model, presetColumns(train, features, rows)).forEach((v, i) => (oof[rows[i]] = v));
  }
  return oof;
}

/** A Python kind's held-out predictions from a second run of the same job, checking it makes the job's very pickle. */
async function rerunOof(h: Harness, job: JobView, body: Record<string, unknown>, isolation: Isolation): Promise<Float64Array> {
  const { dataset } = h.world;
  const fit = await fitInSandbox({
    train: dataset.train,
    benchmark: dataset.benchmarks.train,
    target: dataset.target,
    core: dataset.core_features,
    model: job.model as Exclude<TrainedModel, "ridge">,
    params: job.params,
    features: dataset.features,
    custom_model_fn: body.custom_model_fn as string | undefined,
    wall_seconds: 120,
    isolation,
  });
  if (!fit.ok) throw new Error(fit.error);
  // The same job makes the same pickle (a custom source's classes too): a replay's uploads name it.
  expect(createHash("sha256").update(fit.pickle).digest("hex")).toBe(job.artifact.sha256);
  return fit.oof;
}

/**
 * Trains `kind` on hosted compute and checks the job: completed, its CV metrics those the scoring
 * engine gives for the fold predictions exped by exped (to 1e-12; a ridge refitted fold by fold
 * here, a Python kind rerun, which must make the job's pickle byte for byte), and its downloaded
 * model predicting the validation split (run as `isolation`) into a practice-board upload that is
 * scored. Answers the job and the model's validation predictions.
 */
export async function checkHostedKind(kind: string, body: Record<string, unknown>, isolation: Isolation = "sandbox"): Promise<{ job: JobView; predictions: Float64Array }> {
  const { h, job } = await trained(body, isolation);
  expect(job).toMatchObject({ status: "completed", model: kind, error_message: null, trainer_python_version: expect.stringMatching(/^3\.\d+$/) });
  expect(job.feature_manifest).toMatchObject({ features: h.world.dataset.features, preprocessing: { missing: "NaN becomes 0.0" } });

  const { dataset } = h.world;
  const oof = kind === "ridge" ? ridgeOof(dataset.train, dataset.target, dataset.features, job.params.alpha as number) : await rerunOof(h, job, body, isolation);
  const designated = new Map(dataset.benchmarks.train.ids.map((id, i) => [id, dataset.benchmarks.train.columns[DESIGNATED][i]]));
  const terms = cvFolds(dataset.train).flatMap((f) =>
    f.held.map(({ rows }) => {
      const ids = rows.map((r) => dataset.train.ids[r]);
      return scoreExped({
        ids,
        target: Float64Array.from(rows, (r) => dataset.train.columns[dataset.target][r]),
        benchmark: Float64Array.from(ids, (id) => designated.get(id) as number),
        core: dataset.core_features.map((c) => Float64Array.from(rows, (r) => dataset.train.columns[c][r])),
        prediction: Float64Array.from(rows, (r) => oof[r]),
      });
    }),
  );
  const cv = job.metrics!.cv;
  expect(cv).toMatchObject({ folds: 3, expeds_scored: terms.length, embargo_expeds: 1 });
  for (const [name, xs] of [["corr", terms.map((t) => t.corr)], ["aimc_estimate", terms.map((t) => t.aimc as number)], ["ncorr", terms.map((t) => t.ncorr)]] as const) {
    const want = meanStd(xs);
    expect(cv[name].mean).toBeCloseTo(want.mean, 12);
    expect(cv[name].std).toBeCloseTo(want.std, 12);
  }

  // The downloaded model predicts the validation split, and the practice board takes and scores it.
  const model = await h.service.downloadModel(ANN, job.job_id);
  const validation = dataset.validation;
  const out = await runPredict({ isolation, pkl: model.bytes, features: selectColumns(validation, dataset.features), benchmark: dataset.benchmarks.validation, timeout_seconds: 60 });
  if (!out.ok) throw new Error(out.error);
  expect(out.ids).toEqual(validation.ids);
  expect([...out.values].every((v) => v > 0 && v < 1)).toBe(true);
  const name = h.model(h.ann, `hosted-${kind}`);
  const pkl = { bytes: model.bytes, sha256: createHash("sha256").update(model.bytes).digest("hex"), python_version: job.trainer_python_version as string };
  const run = uploadInline(h.ctx, h.ann, "practice", uploadWith(pkl, name, out.ids, out.values));
  await h.at(h.clock.now() + 61 * SECOND);
  const scored = getRun(h.ctx, h.ann, run.upload_id);
  expect(scored).toMatchObject({ status: "finalised", n_matched: validation.ids.length });
  expect(scored.scores).not.toBeNull();
  return { job, predictions: out.values };
}
