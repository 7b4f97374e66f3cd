import { z } from "zod";
import { faultNames } from "./faults.js";

/**
 * The JSON request bodies, as zod schemas. The same schemas validate requests (422 with the first
 * error's location) and generate the OpenAPI document's components.
 */

/** JSON cannot carry NaN or Infinity: these strings (and null) stand for them, so the service can refuse them. */
const nonFinite = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, "-Infinity": Number.NEGATIVE_INFINITY } as const;

const predictionValue = z
  .union([z.number(), z.enum(["NaN", "Infinity", "-Infinity"]), z.null()], {
    error: "expected a number in [0, 1] (null, 'NaN', 'Infinity' and '-Infinity' are read as non-finite)",
  })
  .transform((v) => (typeof v === "number" ? v : v === null ? Number.NaN : nonFinite[v]))
  .meta({ description: "A number in [0, 1]; null, 'NaN', 'Infinity', '-Infinity' are read as non-finite and refused by the service." });

const predictionEntry = z.object({
  instrument_id: z.string(),
  prediction: predictionValue.optional(),
  targets: z.record(z.string(), predictionValue).optional().meta({ description: "Per-target values, e.g. {target_everest: 0.5}" }),
});

export const submitV2Body = z.object({
  model_id: z.string().min(1).meta({ description: "The model's id (mdl_…) or name" }),
  exped: z.string().min(1).meta({ description: "The round token from /rounds/current (never the string 'current')" }),
  predictions: z.array(predictionEntry).meta({ description: "Exactly the open round's instrument ids, each once" }),
});

export const createModelBody = z.object({ name: z.string() });

/** A JSON number too large for a double parses as Infinity: it reaches the service as text, which refuses it (400). */
const usdcAmount = z
  .preprocess((v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v), z.union([z.string(), z.number()]))
  .meta({ description: "The principal in dollars: a decimal string (\"2.5\") or a number; positive, finite, at most 6 decimals" });

export const stakeBody = z.object({
  model_id: z.string().min(1).meta({ description: "The caller's model: id (mdl_…) or name" }),
  amount_usdc: usdcAmount,
});

export const clockAdvanceBody = z.union(
  [
    z.strictObject({ seconds: z.number().min(0) }),
    z.strictObject({ to: z.literal("next_phase") }),
    z.strictObject({ until: z.iso.datetime({ offset: true }) }),
  ],
  { error: "expected one of {seconds: n >= 0}, {to: 'next_phase'}, {until: '<ISO instant>'}" },
);

export const scoringChangeBody = z.strictObject({
  weights: z.strictObject({ corr: z.number(), aimc: z.number(), ncorr: z.number() }).optional(),
  clip: z.number().optional(),
  aggregate: z.enum(["sum", "exped_weighted_mean"]).optional(),
});

export const faultBody = z.strictObject({
  fault: z.enum(faultNames),
  round: z.int().optional().meta({ description: "The round (1-based) a round fault strikes; absent for diagnostics_maintenance and compute_paused" }),
  on: z.boolean(),
});

const modelRef = z.string().min(1).meta({ description: "The model's returned name (participant_…) or id (mdl_…)" });
const windowGuard = z.string().min(1).optional().meta({ description: "A guard: must name the window being drafted (round_N)" });

export const stakeAllocationBody = z.strictObject({
  model: modelRef,
  amount_usdc: z.string({ error: "expected a decimal string such as \"2.5\" (a JSON number is refused)" }).meta({
    description: "USDC as a decimal string, at most 6 decimals; a JSON number is refused",
  }),
  window: windowGuard,
});

export const stakeWithdrawBody = z.strictObject({ model: modelRef, window: windowGuard });

export const finalSelectionBody = z.strictObject({
  models: z.array(modelRef).meta({ description: "Up to max_selections of your models (an empty list clears the selection)" }),
});

const filePart = (description: string) => z.file().optional().meta({ description });
const textField = (description: string) => z.string().optional().meta({ description });

/**
 * One upload on an event lane, as multipart form data. A missing file part is not a schema error:
 * the service answers it with the spec's text ("A model .pkl file is required...").
 */
export const uploadForm = z.object({
  model_id: z.string().min(1).meta({ description: "The model's returned name (participant_…) or id (mdl_…)" }),
  predictions: filePart("The predictions file: .csv (header id,prediction) or .parquet (id column or index, prediction)"),
  model_pkl: filePart("The cloudpickled predict callable (.pkl)"),
  model_pkl_sha256: textField("Lowercase 64-hex SHA-256 of model_pkl"),
  model_pkl_python_version: textField("'major.minor' of the interpreter that saved the pickle (omitted: 3.11)"),
  idempotency_key: textField("A retried upload with the same key answers with the first one"),
});

const partName = (what: string) => z.string().min(1).optional().meta({ description: `Name of the form part holding ${what}` });

/** A batch's declaration, sent as the JSON text of the `manifest` field; files travel as named parts. */
export const batchManifest = z.object({
  items: z
    .array(
      z.object({
        model_id: z.string().min(1),
        predictions: partName("this item's predictions file"),
        model_pkl: partName("this item's model .pkl (several items may name one part)"),
        model_pkl_sha256: z.string().optional(),
        model_pkl_python_version: z.string().optional(),
        idempotency_key: z.string().optional(),
      }),
    )
    .meta({ description: "1 to 25 items (the service refuses 0 and more than 25 with its own text)" }),
});

export const batchForm = z
  .object({ manifest: z.string().meta({ description: "JSON text of a BatchManifest", contentMediaType: "application/json" }) })
  .catchall(z.file().meta({ description: "A file part named by the manifest" }));

/** `upload_model`: the tournament auto-submit lane's model file. A missing `file` part is a 422 on `file`. */
export const modelFileForm = z.object({
  file: z.file({ error: "expected the model file as the multipart part 'file'" }).meta({ description: "The cloudpickled predict callable (.pkl)" }),
  python_version: textField("'major.minor' of the interpreter that saved the pickle (omitted: 3.11); outside the accepted set: 400 naming it"),
  sha256: textField("Lowercase 64-hex SHA-256 of the file; checked against the bytes when given"),
});

export const autoSubmitBody = z.strictObject({
  enabled: z.boolean().meta({ description: "true: the lane runs the model's validated file each round; false: it does not" }),
});

/** Component names of the multipart bodies in the OpenAPI document. */
export const formSchemas = {
  UploadForm: uploadForm,
  BatchForm: batchForm,
  ModelFileForm: modelFileForm,
} as const;

export type FormName = keyof typeof formSchemas;

/**
 * A train call. Open at the top level on purpose: the service refuses unknown fields and a
 * top-level `seed` with 400 naming them (the public facts' status), not the schema's 422.
 */
export const trainBody = z.record(z.string(), z.unknown()).meta({
  description:
    "{model: ridge|random_forest|mlp|xgboost|custom|lightgbm (lightgbm where the training Python imports it), features: 'all'|'small'|[names] (default small), " +
    "target, universe: futures, gpu: CPU|T4|A10G|A100 (default T4), params: {seed, ...the kind's hyperparameters}, max_hours: (0, 4] (default 1), dry_run}",
});

/** A command for the hosted machine. Open on purpose: the service refuses a bad command or an unknown field with its own 400. */
export const machineCommandBody = z.record(z.string(), z.unknown()).meta({
  description: "{command: a shell command (sh -c), 1 to 4096 bytes, run in the machine's workspace}",
});

/** Component names of the bodies in the OpenAPI document. */
export const bodySchemas = {
  SubmitV2Body: submitV2Body,
  CreateModelBody: createModelBody,
  StakeBody: stakeBody,
  ClockAdvanceBody: clockAdvanceBody,
  ScoringChangeBody: scoringChangeBody,
  FaultBody: faultBody,
  StakeAllocationBody: stakeAllocationBody,
  StakeWithdrawBody: stakeWithdrawBody,
  FinalSelectionBody: finalSelectionBody,
  AutoSubmitBody: autoSubmitBody,
  TrainBody: trainBody,
  MachineCommandBody: machineCommandBody,
} as const;

export type BodyName = keyof typeof bodySchemas;

/** Every schema the OpenAPI document lists as a component. */
export const componentSchemas = { ...bodySchemas, ...formSchemas, BatchManifest: batchManifest } as const;
