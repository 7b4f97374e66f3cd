import { z } from "zod";
import { operation } from "./operation.js";

/** Range and completeness are the service's checks (with the spec's texts), not the schema's. */
const predictionEntry = z.object({
  instrument_id: z.string(),
  prediction: z.number().optional().describe("The prediction for the graded target, in [0, 1]"),
  targets: z.record(z.string(), z.number()).optional().describe("Per-target predictions, e.g. {target_everest: 0.5}"),
});

/** Tournament submit v2: JSON, one entry per instrument of the open round. */
export const submitOperations = {
  submit: operation({
    scope: "key",
    rate: "submit_v2",
    rest: [
      {
        method: "POST",
        path: "/api/v1/futures/submit/v2",
        operationId: "submit_futures_v2",
        summary: "Submits one prediction per instrument of the open round; a resubmit inside the window replaces it (replaced: true)",
        body: "SubmitV2Body",
        status: 201,
        responses: {
          201: "SubmitResult {submission_id, model_id, model, exped, n_predictions, replaced, revision, submitted_at}",
          400: "Duplicate instrument_id values in predictions ({n} duplicates). | Missing predictions for {n} instruments. | Submission contains {n} instrument_id values not in the current round.",
          404: "Round not found | No model '{name}'. Create it first with create_model. | Model not found",
          409: "Submission already exists for this model and exped. | The submission window for {exped} closed at {close_at}; no entry was recorded.",
          422: "Target '{name}': prediction {score} is outside the allowed range [0, 1]. | prediction must be a finite number (no NaN or Infinity) | schema errors with loc",
        },
      },
    ],
    mcp: [
      {
        name: "submit_futures_predictions",
        description:
          "Tournament submit v2 (full tournament keys): one entry per instrument of the open round, each with a prediction in [0, 1]. " +
          "A resubmit inside the window replaces the entry (replaced: true); once the window closes the entry is final.",
        input: {
          model_id: z.string().min(1).describe("The model's id (mdl_…) or name, from create_model"),
          exped: z.string().min(1).describe("The round token from get_current_round or get_instruments"),
          predictions: z.array(predictionEntry).describe("Exactly the open round's instrument ids, each once"),
        },
      },
    ],
  }),
};
