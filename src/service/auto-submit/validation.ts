import { rowsByExped, selectColumns, takeRows, type Frame } from "../../domain/frame.js";
import { runPredict, type PredictOutcome } from "../../participant/run-predict.js";
import { aheadOrNow, type AheadWork } from "../kernel/runs-ahead.js";
import type { Dataset } from "../../data/generate.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "../kernel/context.js";
import { modelIsolation } from "../kernel/model-isolation.js";
import { modelFileBytes, modelUploadById, setModelUploadStatus, type ModelUploadRow } from "../../store/model-uploads.js";
import { checkPredictOutput } from "./predict-output.js";
import { autoSubmitSettings } from "../kernel/settings/auto-submit.js";
import { dueTwoStage } from "../../store/two-stage.js";
import { markModelUploadError, markModelUploadValidated } from "../../store/model-uploads.js";

/** A model file's next status change, due at `t`. */
export interface ValidationStep {
  t: number;
  lane: "validating" | "validate";
  model_upload_id: string;
}

const VALIDATION_STAGES = { table: "model_uploads", id: "upload_id", from: "pending", next: "validating", firstAt: "validating_at", endAt: "validates_at" } as const;

export function dueValidationSteps(ctx: ServiceContext, now: number): ValidationStep[] {
  return dueTwoStage(ctx.db, VALIDATION_STAGES, now).map(({ t, stage, id }) => ({ t, lane: stage === "next" ? "validating" : "validate", model_upload_id: id }));
}

/**
 * Applies a validation step: `pending → validating`, then the sandbox predict's verdict. The
 * sandbox predict runs the model on the validation sample and checks its answer (a DataFrame with
 * one numeric column, indexed by exactly the sample's ids, finite values in [0, 1]): `validated`,
 * or `error` with what was wrong. A file replaced meanwhile is left as it is.
 */
export async function applyValidationStep(ctx: ServiceContext, step: ValidationStep): Promise<void> {
  const row = modelUploadById(ctx.db, step.model_upload_id);
  if (!row) return;
  if (step.lane === "validating") {
    if (row.status !== "pending") return;
    inTransaction(ctx.db, () => {
      setModelUploadStatus(ctx.db, row.upload_id, "validating");
      appendEvent(ctx.db, step.t, "model_upload.validating", { upload_id: row.upload_id, model_id: row.model_id });
    });
    return;
  }
  if (row.status !== "pending" && row.status !== "validating") return;
  const sample = validationSample(ctx.world.dataset);
  const { key, run } = validationRun(ctx, row);
  const outcome = await aheadOrNow(ctx, key, run);
  const checked = outcome.ok ? checkPredictOutput(sample.features.ids, outcome) : outcome;
  inTransaction(ctx.db, () => {
    if (checked.ok) {
      markModelUploadValidated(ctx.db, row.upload_id, step.t);
      appendEvent(ctx.db, step.t, "model_upload.validated", { upload_id: row.upload_id, model_id: row.model_id, n_rows: sample.features.ids.length });
    } else {
      markModelUploadError(ctx.db, row.upload_id, checked.error);
      appendEvent(ctx.db, step.t, "model_upload.error", { upload_id: row.upload_id, model_id: row.model_id, error: checked.error });
    }
  });
}

/**
 * A model file's validation predict, named by its upload (whose file and sample never change); it
 * may start as soon as the file is accepted (src/service/kernel/runs-ahead.ts, src/service/cadence/look-ahead.ts).
 */
export function validationRun(ctx: ServiceContext, row: ModelUploadRow): AheadWork<PredictOutcome> {
  return {
    key: `validate:${row.upload_id}`,
    t: row.validates_at,
    run: async () => {
      const sample = validationSample(ctx.world.dataset);
      return runPredict({
        isolation: await modelIsolation(ctx),
        pkl: modelFileBytes(ctx.db, row.sha256),
        features: sample.features,
        benchmark: sample.benchmark,
        timeout_seconds: autoSubmitSettings(ctx).predict_timeout_seconds,
      });
    },
  };
}

/** The sandbox predict's input, made once per dataset: the first validation exped's features and benchmark rows. */
const samples = new WeakMap<Dataset, { features: Frame; benchmark: Frame }>();

export function validationSample(dataset: Dataset): { features: Frame; benchmark: Frame } {
  let sample = samples.get(dataset);
  if (!sample) {
    const rows = rowsByExped(dataset.validation).values().next().value as number[];
    sample = {
      features: selectColumns(takeRows(dataset.validation, rows), dataset.features),
      benchmark: takeRows(dataset.benchmarks.validation, rows),
    };
    samples.set(dataset, sample);
  }
  return sample;
}
