import { route } from "../route.js";

/** Tournament submit v2: JSON, one entry per instrument of the open round. */
export const submitRoutes = [
  route({
    method: "POST",
    path: "/api/v1/futures/submit/v2",
    operationId: "submit_futures_v2",
    summary: "Submits one prediction per instrument of the open round; a resubmit inside the window replaces it (replaced: true)",
    key: "required",
    body: "SubmitV2Body",
    responses: {
      201: "SubmitResult {submission_id, model_id, model, exped, n_predictions, replaced, revision, submitted_at}",
      400: "Duplicate instrument_id values in predictions ({n} duplicates). | Missing predictions for {n} instruments. | Submission contains {n} instrument_id values not in the current round.",
      404: "Round not found | No model '{name}'. Create it first with create_model. | Model not found",
      409: "Submission already exists for this model and exped. | The submission window for {exped} closed at {close_at}; no entry was recorded.",
      422: "Target '{name}': prediction {score} is outside the allowed range [0, 1]. | prediction must be a finite number (no NaN or Infinity) | schema errors with loc",
    },
    handle: async ({ c, service, key, body }) => c.json(await service.submit(key, body), 201),
  }),
];
