import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { deliverModelFile } from "./downloads.js";
import { addTool, type ToolContext } from "./tool.js";

const jobId = { job_id: z.string().min(1).describe("The job_id train answered with") };

/** Hosted compute for events: train, follow, cancel and download training jobs; read the compute grant. */
export function registerComputeTools(server: McpServer, { service, key, downloads, log }: ToolContext): void {
  addTool(server, log, {
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
    run: (args) => service.train(key, definedOnly(args)),
  });
  addTool(server, log, {
    name: "get_job_status",
    description: "One training job: queued → running → completed | failed | timeout | cancelled, with metrics.cv, feature_manifest and the artifact.",
    input: jobId,
    readOnly: true,
    run: ({ job_id }) => service.getJob(key, job_id),
  });
  addTool(server, log, {
    name: "get_job_log",
    description: "A training job's lifecycle trail at simulated times: queued, running, each CV fold's result (once completed), and how it ended.",
    input: jobId,
    readOnly: true,
    run: ({ job_id }) => service.getJobLog(key, job_id),
  });
  addTool(server, log, {
    name: "list_compute_jobs",
    description: "The caller's training jobs, oldest first.",
    input: {},
    readOnly: true,
    run: () => service.listJobs(key),
  });
  addTool(server, log, {
    name: "cancel_job",
    description: "Cancels a queued or running job: charged for the seconds it ran, its hold released.",
    input: jobId,
    run: ({ job_id }) => service.cancelJob(key, job_id),
  });
  addTool(server, log, {
    name: "get_compute_credits",
    description: "The caller's compute grant: available_cents, reserved_cents (held by open jobs), total_spent_usd, grant_cents.",
    input: {},
    readOnly: true,
    run: () => service.computeCredits(key),
  });
  addTool(server, log, {
    name: "download_model",
    description:
      "Downloads a completed job's model, a cloudpickled predict(live_features, live_benchmark_models=None) callable, <job_id>.pkl: " +
      "over stdio written to this server's private download directory (removed when the session ends; answers path), over HTTP " +
      "served at download_url (GET it with your X-API-Key); with its sha256. Upload it on an event lane (model_pkl_base64 with " +
      "its bytes, or model_pkl_path over stdio).",
    input: jobId,
    readOnly: true,
    run: async ({ job_id }) => deliverModelFile(downloads, job_id, await service.downloadModel(key, job_id)),
  });
}

/** The arguments the caller gave: an optional argument left out is not a field of the call. */
function definedOnly(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}
