import { z } from "zod";

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
  fault: z.literal("missing_benchmark"),
  round: z.int(),
  on: z.boolean(),
});

/** Component names of the bodies in the OpenAPI document. */
export const bodySchemas = {
  SubmitV2Body: submitV2Body,
  CreateModelBody: createModelBody,
  ClockAdvanceBody: clockAdvanceBody,
  ScoringChangeBody: scoringChangeBody,
  FaultBody: faultBody,
} as const;

export type BodyName = keyof typeof bodySchemas;
