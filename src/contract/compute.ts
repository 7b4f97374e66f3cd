import { z } from "zod";
import { operation } from "./operation.js";
import { texts } from "./refusals.js";

const jobView =
  "JobView {job_id, status: queued|running|completed|failed|timeout|cancelled, model, gpu, universe, target, params, max_hours, " +
  "hold_cents, cost_cents, runtime_seconds, max_runtime_seconds, created_at, running_at, ends_at, finished_at, error_message, " +
  "metrics.cv.{corr, aimc_estimate, ncorr}.{mean, std}, feature_manifest.features, trainer_python_version, artifact}";
const notFound = texts("job_not_found");
const jobId = { job_id: z.string().min(1).describe("The job_id train answered with") };

/** Hosted compute for events: training jobs drawn from each agent's compute grant. */
export const computeOperations = {
  train: operation({
    scope: "key",
    rate: "train",
    rest: [
      {
        method: "POST",
        path: "/api/v1/compute/train",
        operationId: "train",
        summary:
          "Launches a hosted training job (202): model ridge, random_forest, mlp, xgboost, lightgbm (where the training Python imports it) or custom (with custom_model_fn), optionally on a train_filter; or with dry_run: true prices it (200) without reserving anything",
        body: "TrainBody",
        status: (answer) => ("dry_run" in answer ? 200 : 202),
        responses: {
          200: "dry_run: {dry_run, estimated_hold_cents, max_runtime_seconds, estimated_runtime_seconds, estimated_cost_cents, rate_usd_per_hr, model, gpu, universe, target, features, max_hours}",
          202: jobView,
          400: texts("train_seed_top_level", "train_unknown_fields", "train_field_invalid", "train_model_unsupported", "custom_model_fn_unsafe"),
          403: texts("hackathon_not_started", "compute_not_live", "compute_no_budget"),
          409: texts("compute_insufficient_credit"),
          503: `${texts("compute_paused")} | ${texts("custom_model_fn_unchecked")}`,
        },
      },
    ],
    mcp: [
      {
        name: "train",
        description:
          "Launches a hosted training job on the event's compute grant (models ridge, random_forest, mlp, xgboost, lightgbm where the " +
          "training Python imports it, and custom with custom_model_fn), or with dry_run: true " +
          "answers estimated_hold_cents, max_runtime_seconds and the resolved gpu/model/universe/features without reserving anything. " +
          "The seed goes in params; a top-level seed or an unknown argument is refused (400). Poll get_job_status.",
        input: {
          model: z.unknown().optional().describe("ridge, random_forest, mlp, xgboost, lightgbm (refused where the training Python cannot import it) or custom"),
          features: z.unknown().optional().describe("'all', 'small' (default: the alphabetical first quarter) or a list of feature names"),
          target: z.unknown().optional().describe("Omit it to train on the graded column"),
          universe: z.unknown().optional().describe("futures"),
          gpu: z.unknown().optional().describe("CPU, T4 (default), A10G or A100"),
          params: z
            .unknown()
            .optional()
            .describe(
              "{seed, ...the kind's hyperparameters}: ridge alpha; random_forest n_estimators, max_depth, min_samples_leaf, max_features; " +
                "mlp hidden_layer_sizes, alpha, learning_rate_init, max_iter; xgboost n_estimators, max_depth, learning_rate, subsample, " +
                "colsample_bytree; lightgbm n_estimators, num_leaves, learning_rate, min_child_samples, subsample, colsample_bytree; " +
                "custom: any object, passed to build_model(params)",
            ),
          max_hours: z.unknown().optional().describe("Above 0, at most 4 (default 1); the run is also capped at 45 minutes"),
          train_filter: z
            .unknown()
            .optional()
            .describe('{"exped": {"cutoff_lt": "exped_0100"}, "sample": {"fraction": 0.25, "unit": "exped"}}: train on part of the train split (sampled with params.seed)'),
          custom_model_fn: z
            .unknown()
            .optional()
            .describe("model custom: Python source defining build_model(params) -> estimator with fit/predict; statically scanned, run in a network-denied sandbox"),
          dry_run: z.unknown().optional().describe("true: price the job only"),
        },
        loose: true,
      },
    ],
  }),
  listJobs: operation({
    scope: "key",
    rate: "list_compute_jobs",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/jobs",
        operationId: "list_compute_jobs",
        summary: "The caller's training jobs, oldest first",
        responses: { 200: `{jobs: [${jobView}]}` },
      },
    ],
    mcp: [{ name: "list_compute_jobs", description: "The caller's training jobs, oldest first.", input: {}, readOnly: true }],
  }),
  getJob: operation({
    scope: "key",
    rate: "get_job_status",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/jobs/{job_id}",
        operationId: "get_job_status",
        summary: "One of the caller's training jobs",
        responses: { 200: jobView, 404: notFound },
      },
    ],
    mcp: [
      {
        name: "get_job_status",
        description: "One training job: queued → running → completed | failed | timeout | cancelled, with metrics.cv, feature_manifest and the artifact.",
        input: jobId,
        readOnly: true,
      },
    ],
  }),
  getJobLog: operation({
    scope: "key",
    rate: "get_job_log",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/jobs/{job_id}/log",
        operationId: "get_job_log",
        summary:
          "A job's lifecycle trail at simulated times: queued, running, each CV fold's result (once completed), completed | failed | timeout | cancelled",
        responses: {
          200: "{job_id, status, entries: [{at, event: queued|running|fold|completed|failed|timeout|cancelled, ...}]}",
          404: notFound,
        },
      },
    ],
    mcp: [
      {
        name: "get_job_log",
        description: "A training job's lifecycle trail at simulated times: queued, running, each CV fold's result (once completed), and how it ended.",
        input: jobId,
        readOnly: true,
      },
    ],
  }),
  cancelJob: operation({
    scope: "key",
    rate: "cancel_job",
    rest: [
      {
        method: "DELETE",
        path: "/api/v1/compute/jobs/{job_id}",
        operationId: "cancel_job",
        summary: "Cancels a queued or running job: charged for the seconds it ran, its hold released",
        responses: { 200: jobView, 404: notFound, 409: texts("job_already_finished") },
      },
    ],
    mcp: [
      {
        name: "cancel_job",
        description: "Cancels a queued or running job: charged for the seconds it ran, its hold released.",
        input: jobId,
      },
    ],
  }),
  /** Two endpoints: where the model is (`get_model_download_url`), and its bytes (`download_model`). */
  downloadModel: operation({
    scope: "key",
    rate: "download_model",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/jobs/{job_id}/model",
        operationId: "get_model_download_url",
        summary:
          "Where a completed job's model can be downloaded: {download_url, filename, sha256} (Basecamp's URL takes the same X-API-Key; it is not presigned)",
        responses: { 200: "{download_url, filename, sha256}", 404: `${notFound} | ${texts("job_model_absent")}`, 409: texts("job_model_not_ready") },
      },
      {
        method: "GET",
        path: "/api/v1/compute/jobs/{job_id}/model/file",
        operationId: "download_model",
        summary: "A completed job's model: a cloudpickled predict(live_features, live_benchmark_models=None) callable",
        produces: "application/octet-stream",
        responses: { 200: "<job_id>.pkl", 404: `${notFound} | ${texts("job_model_absent")}`, 409: texts("job_model_not_ready") },
      },
    ],
    mcp: [
      {
        name: "download_model",
        description:
          "Downloads a completed job's model, a cloudpickled predict(live_features, live_benchmark_models=None) callable, <job_id>.pkl: " +
          "over stdio written to this server's private download directory (removed when the session ends; answers path), over HTTP " +
          "served at download_url (GET it with your X-API-Key); with its sha256. Upload it on an event lane (model_pkl_base64 with " +
          "its bytes, or model_pkl_path over stdio).",
        input: jobId,
        readOnly: true,
      },
    ],
  }),
  computeCredits: operation({
    scope: "key",
    rate: "get_compute_credits",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/credits",
        operationId: "get_compute_credits",
        summary: "The caller's compute grant: available_cents, reserved_cents (held by open jobs), total_spent_usd",
        responses: { 200: "{grant_cents, available_cents, reserved_cents, total_spent_usd}" },
      },
    ],
    mcp: [
      {
        name: "get_compute_credits",
        description: "The caller's compute grant: available_cents, reserved_cents (held by open jobs), total_spent_usd, grant_cents.",
        input: {},
        readOnly: true,
      },
    ],
  }),
};
