import { z } from "zod";
import { operation, type Lane, type RestRoute } from "./operation.js";
import { modelFileRefusals, texts } from "./refusals.js";
import { uploadArgs } from "./upload-args.js";

/** The most uploads one batch may carry. */
export const MAX_BATCH_ITEMS = 25;

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

/** Each lane's endpoints and tools, and what its tools say about it. */
const lanes = {
  round: {
    upload: { path: "/api/v1/event/predictions/upload", operationId: "submit_event_predictions", tool: "submit_event_predictions" },
    batch: { path: "/api/v1/event/predictions/batch", operationId: "submit_event_predictions_batch", tool: "submit_event_predictions_batch" },
    summary: "Event round lane",
    about: "the event round lane (scored for the event; fenced outside an open round, 409 cadence_not_open; draws on the upload pool)",
  },
  practice: {
    upload: { path: "/api/v1/diagnostics/upload", operationId: "submit_validation_diagnostics", tool: "submit_validation_diagnostics" },
    batch: { path: "/api/v1/diagnostics/batch", operationId: "submit_diagnostics_batch", tool: "submit_diagnostics_batch" },
    summary: "Practice board lane",
    about: "the practice board lane (display only; open in every phase of a running event; free of the upload pool)",
  },
} as const;

/** The multipart upload endpoint of a lane: one upload, accepted with 202 (scored later). */
function uploadRoute(lane: Lane, summary: string): RestRoute {
  return {
    method: "POST",
    path: lanes[lane].upload.path,
    operationId: lanes[lane].upload.operationId,
    summary,
    form: "UploadForm",
    upload: { lane, items: 1 },
    status: 202,
    responses: { 202: runView, ...refusals, ...(lane === "round" ? { 409: `${roundOnly} | ${refusals[409]}` } : {}) },
  };
}

/** The batch endpoint of a lane: 1 to 25 uploads, each with its own outcome; 202 when all succeeded, else 207. */
function batchRoute(lane: Lane): RestRoute {
  return {
    method: "POST",
    path: lanes[lane].batch.path,
    operationId: lanes[lane].batch.operationId,
    summary: `${lanes[lane].summary}: a batch of 1 to 25 uploads; 202 when all succeeded, else 207`,
    form: "BatchForm",
    upload: { lane, items: MAX_BATCH_ITEMS },
    fixed: [lane],
    responses: {
      202: "BatchResult {all_succeeded: true, items: [{index, idempotency_key, outcome: accepted|replayed, run, error: null}], uploads_remaining, retry_after_seconds: null}",
      207: "BatchResult with all_succeeded false; refused items carry error {status, code, message}: every upload refusal, the phase's and the fence's included; fenced items add retry_after_seconds, and the answer carries it as Retry-After",
      400: texts("batch_empty", "batch_too_large"),
      413: texts("payload_too_large"),
    },
  };
}

const uploadTool = (lane: Lane) => ({
  name: lanes[lane].upload.tool,
  description:
    `One upload on ${lanes[lane].about}: a predictions file (predictions_base64 with predictions_filename, or inline ` +
    "predictions) and the model .pkl (model_pkl_base64), as contents; over stdio a local path (predictions_path, " +
    "model_pkl_path) may stand for a file, never over HTTP. Accepted uploads answer with upload_id, status accepted and " +
    "uploads_remaining; scoring finishes later (poll get_run).",
  input: uploadArgs,
});

const batchTool = (lane: Lane) => ({
  name: lanes[lane].batch.tool,
  description:
    `A batch of 1 to 25 uploads on ${lanes[lane].about}, each item with the arguments of ${lanes[lane].upload.tool}. ` +
    "Each item gets its own outcome (accepted, replayed or refused with {status, code, message}); all_succeeded says whether all passed.",
  input: { items: z.array(z.object(uploadArgs)).describe("1 to 25 uploads") },
  args: (a: Record<string, unknown>) => [lane, a.items],
});

/** One upload on a lane: its endpoint and its tool, counted against the lane's own rate limit. */
const uploadOperation = (lane: Lane, summary: string) =>
  operation({ scope: "key", rate: `upload_${lane}`, rest: [uploadRoute(lane, summary)], mcp: [uploadTool(lane)] });

/** The event round lane (cadence-fenced, draws on the upload pool), batches on either lane, and the sealed round boards. */
export const eventOperations = {
  uploadRound: uploadOperation("round", "Event round lane: one multipart upload (predictions + model_pkl), 202; fenced outside rounds"),
  uploadBatch: operation({
    scope: "key",
    rate: "upload_batch",
    rest: [batchRoute("round"), batchRoute("practice")],
    mcp: [batchTool("round"), batchTool("practice")],
  }),
  eventRoundBoard: operation({
    scope: "reader",
    rate: "event_round_board",
    rest: [
      {
        method: "GET",
        path: "/api/v1/event/rounds/{window}/board",
        operationId: "get_event_round_board",
        summary: "One event round's board (window round_N); sealed, with no rows, until the next round opens",
        responses: { 200: "Board + {window, sealed, unseals_at}", 404: "Round not found" },
      },
    ],
    mcp: [
      {
        name: "get_event_round_board",
        description: "One event round's board (window round_N); sealed, with no rows, until the next round opens.",
        input: { window: z.string().min(1).describe("The round window, e.g. round_1") },
        readOnly: true,
      },
    ],
  }),
};

const uploadId = { upload_id: z.string().min(1).describe("The upload_id an upload answered with") };
const notFound = "Upload {id} not found (also another agent's run)";

/** The practice board lane (never fenced, free of the pool), the runs of both lanes, the practice board. */
export const diagnosticsOperations = {
  uploadPractice: uploadOperation("practice", "Practice board lane: one multipart upload, 202; open in every phase of a running event"),
  getRun: operation({
    scope: "key",
    rate: "get_run",
    rest: [
      {
        method: "GET",
        path: "/api/v1/diagnostics/runs/{upload_id}",
        operationId: "get_run",
        summary: "A run of either lane: accepted → scoring → finalised | failed | cancelled",
        responses: { 200: "RunView", 404: notFound },
      },
    ],
    mcp: [
      {
        name: "get_run",
        description: "The status of an upload on either lane: accepted → scoring → finalised | failed | cancelled, with its scores once finalised.",
        input: uploadId,
        readOnly: true,
      },
    ],
  }),
  deleteRun: operation({
    scope: "key",
    rate: "delete_run",
    rest: [
      {
        method: "DELETE",
        path: "/api/v1/diagnostics/runs/{upload_id}",
        operationId: "delete_run",
        summary: "Cancels a queued or scoring run (its pool place comes back); removes a failed or cancelled one before a retry",
        responses: { 200: "{upload_id, status: cancelled | removed}", 404: notFound, 409: "Upload {id} was already finalized." },
      },
    ],
    mcp: [
      {
        name: "delete_run",
        description: "Cancels a queued or scoring run (its pool place comes back), or removes a failed or cancelled one before a retry.",
        input: uploadId,
      },
    ],
  }),
  practiceBoard: operation({
    scope: "reader",
    rate: "practice_board",
    rest: [
      {
        method: "GET",
        path: "/api/v1/diagnostics/board",
        operationId: "get_practice_board",
        summary: "The practice board: each model's latest practice score; display only, never counts",
        responses: { 200: "Board + {rank_metric: practice_score, display_only: true}" },
      },
    ],
    mcp: [
      {
        name: "get_diagnostics_leaderboard",
        description: "The practice board: each model's latest practice score; display only, never counts.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
