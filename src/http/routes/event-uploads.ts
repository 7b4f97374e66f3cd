import { modelFileRefusals, texts } from "../refusal-texts.js";
import { MAX_BATCH_ITEMS } from "../../service/event/batch.js";
import type { Lane } from "../../store/uploads.js";
import { route } from "../route.js";
import { batchInputs, uploadInput } from "./event-form.js";

const refusals = {
  400: `${texts("model_pkl_required", ...modelFileRefusals)} | the predictions file's refusals (type, unreadable, empty, column, value, duplicate id, range)`,
  403: texts("hackathon_not_started", "hackathon_ended", "insufficient_scope"),
  404: texts("model_label_unknown", "model_name_unknown", "model_not_found"),
  409: texts("predictions_filed_by_you", "predictions_already_filed", "run_scoring_different_file"),
  413: texts("model_file_too_large", "predictions_file_too_large", "payload_too_large"),
};

/** The round lane's refusals besides the practice board's: the cadence fence (with Retry-After) and the pool. */
const roundOnly = texts("cadence_not_open", "upload_limit_reached");

const runView =
  "RunView {upload_id, lane, model_id, model, status: accepted, round_window, accepted_at, finishes_at, n_rows, uploads_remaining, n_matched, scores, sealed_until, error}";

const paths = {
  round: { upload: "/api/v1/event/predictions/upload", batch: "/api/v1/event/predictions/batch" },
  practice: { upload: "/api/v1/diagnostics/upload", batch: "/api/v1/diagnostics/batch" },
};

/** The multipart upload route of a lane: one upload, accepted with 202 (scored later). */
export function uploadRoute(lane: Lane, operationId: string, summary: string) {
  return route({
    method: "POST",
    path: paths[lane].upload,
    operationId,
    summary,
    key: "required",
    form: "UploadForm",
    upload: { lane, items: 1 },
    responses: { 202: runView, ...refusals, ...(lane === "round" ? { 409: `${roundOnly} | ${refusals[409]}` } : {}) },
    handle: async ({ c, service, key, body }) => {
      const input = await uploadInput(body);
      const run = lane === "round" ? await service.uploadRound(key, input) : await service.uploadPractice(key, input);
      return c.json(run, 202);
    },
  });
}

/** The batch route of a lane: 1 to 25 uploads, each with its own outcome; 202 when all succeeded, else 207. */
export function batchRoute(lane: Lane, operationId: string, summary: string) {
  return route({
    method: "POST",
    path: paths[lane].batch,
    operationId,
    summary,
    key: "required",
    form: "BatchForm",
    upload: { lane, items: MAX_BATCH_ITEMS },
    responses: {
      202: "BatchResult {all_succeeded: true, items: [{index, idempotency_key, outcome: accepted|replayed, run, error: null}], uploads_remaining, retry_after_seconds: null}",
      207: "BatchResult with all_succeeded false; refused items carry error {status, code, message}: every upload refusal, the phase's and the fence's included; fenced items add retry_after_seconds, and the answer carries it as Retry-After",
      400: texts("batch_empty", "batch_too_large"),
      413: texts("payload_too_large"),
    },
    handle: async ({ c, service, key, body }) => {
      const result = await service.uploadBatch(key, lane, batchInputs(body));
      const retry: Record<string, string> = result.retry_after_seconds === null ? {} : { "Retry-After": String(result.retry_after_seconds) };
      return c.json(result, result.all_succeeded ? 202 : 207, retry);
    },
  });
}
