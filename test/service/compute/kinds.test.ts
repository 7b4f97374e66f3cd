import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { selectColumns, type Frame } from "../../../src/data/frame.js";
import { fitLinear, predictLinear } from "../../../src/data/least-squares.js";
import { runPredict } from "../../../src/participant/run-predict.js";
import { scoreExped } from "../../../src/scoring/exped.js";
import { DESIGNATED } from "../../../src/data/schema.js";
import { cvFolds, presetColumns } from "../../../src/service/compute/cv-plan.js";
import type { JobView } from "../../../src/service/compute/job-view.js";
import { fitInSandbox } from "../../../src/service/compute/python-fit.js";
import { getRun } from "../../../src/service/event/runs.js";
import { uploadInline } from "../../../src/service/event/uploads.js";
import { eventLines } from "../../../src/store/event-log.js";
import { uploadWith } from "../../../sim/agents/event-upload.js";
import { eventHarness } from "../../helpers/event-harness.js";
import { requires } from "../../helpers/requires.js";

const ANN = "key-ann-00000001";
const SECOND = 1000;
const funded = { compute: { budget_usd: "5" } };

/** A custom model: a ridge on tanh-squashed features, its class defined in the source (so it pickles by value). */
export const CUSTOM_SOURCE = `
import numpy as np
from sklearn.linear_model import Ridge


class SquashedRidge:
    def __init__(self, alpha):
        self.inner = Ridge(alpha=alpha)

    def fit(self, x, y):
        self.inner.fit(np.tanh(x), y)
        return self

    def predict(self, x):
        return self.inner.predict(np.tanh(x))


def build_model(params):
    return SquashedRidge(params.get("alpha", 10.0))
`;

/** Each kind hosted compute trains (the ridge in TypeScript, the others in the sandbox), with parameters that keep the small event's job quick. */
const KINDS: [string, Record<string, unknown>][] = [
  ["ridge", { model: "ridge", params: { seed: 7, alpha: 2 } }],
  ["random_forest", { model: "random_forest", params: { seed: 7, n_estimators: 20, max_depth: 4 } }],
  ["mlp", { model: "mlp", params: { seed: 7, hidden_layer_sizes: [8], max_iter: 50 } }],
  ["xgboost", { model: "xgboost", params: { seed: 7, n_estimators: 30, max_depth: 3 } }],
  ["custom", { model: "custom", custom_model_fn: CUSTOM_SOURCE, params: { seed: 7, alpha: 5 } }],
];

/** Mean and sample standard deviation, as the job's metrics state them. */
const meanStd = (xs: number[]) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { mean, std: Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) };
};

async function trained(body: Record<string, unknown>) {
  const h = eventHarness(funded);
  const job = (await h.service.train(ANN, { features: "all", ...body })) as JobView;
  expect(job.status).toBe("queued");
  await h.at(h.clock.now() + 300 * SECOND);
  return { h, job: await h.service.getJob(ANN, job.job_id) };
}

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

/** A Python kind's held-out predictions from a second sandboxed run of the same job, checking it makes the job's very pickle. */
async function sandboxOof(h: ReturnType<typeof eventHarness>, job: JobView, body: Record<string, unknown>): Promise<Float64Array> {
  const { dataset } = h.world;
  const fit = await fitInSandbox({
    train: dataset.train,
    benchmark: dataset.benchmarks.train,
    target: dataset.target,
    core: dataset.core_features,
    model: job.model as "random_forest",
    params: job.params,
    features: dataset.features,
    custom_model_fn: body.custom_model_fn as string | undefined,
    wall_seconds: 120,
  });
  if (!fit.ok) throw new Error(fit.error);
  // The same job makes the same pickle (a custom source's classes too): a replay's uploads name it.
  expect(createHash("sha256").update(fit.pickle).digest("hex")).toBe(job.artifact.sha256);
  return fit.oof;
}

requires("python", "sandbox").describe("hosted training of every kind", () => {
  describe.each(KINDS)("hosted training of %s", (kind, body) => {
    it("completes with CV metrics the scoring engine gives for the fold predictions, and a model the practice board scores", async () => {
      const { h, job } = await trained(body);
      expect(job).toMatchObject({ status: "completed", model: kind, error_message: null, trainer_python_version: expect.stringMatching(/^3\.\d+$/) });
      expect(job.feature_manifest).toMatchObject({ features: h.world.dataset.features, preprocessing: { missing: "NaN becomes 0.0" } });

      // The same job's held-out predictions, rescored here exped by exped: a ridge refitted fold by
      // fold, or the same sandboxed run, whose pickle must be the job's own byte for byte.
      const { dataset } = h.world;
      const oof = kind === "ridge" ? ridgeOof(dataset.train, dataset.target, dataset.features, job.params.alpha as number) : await sandboxOof(h, job, body);
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

      // The downloaded model predicts the validation split in the sandbox, and the practice board takes and scores it.
      const model = await h.service.downloadModel(ANN, job.job_id);
      const validation = dataset.validation;
      const out = await runPredict({ isolation: "sandbox", pkl: model.bytes, features: selectColumns(validation, dataset.features), benchmark: dataset.benchmarks.validation, timeout_seconds: 60 });
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
    });
  });

  describe("a sandboxed job's event log", () => {
    it("is the same from the same scenario, and names what was learned, not the pickle's bytes", async () => {
      const run = async () => {
        const { h, job } = await trained(Object.fromEntries(KINDS).random_forest);
        return { lines: [...eventLines(h.ctx.db)], job };
      };
      const [a, b] = [await run(), await run()];
      expect(a.lines).toEqual(b.lines);
      const completed = a.lines.map((l) => JSON.parse(l)).find((e) => e.type === "job.completed");
      expect(completed.payload.model_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(a.lines.join("\n")).not.toContain(a.job.artifact.sha256 as string);
    });
  });
});
