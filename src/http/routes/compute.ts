import { route } from "../route.js";
import { texts } from "../refusal-texts.js";

const jobView =
  "JobView {job_id, status: queued|running|completed|failed|timeout|cancelled, model, gpu, universe, target, params, max_hours, " +
  "hold_cents, cost_cents, runtime_seconds, max_runtime_seconds, created_at, running_at, ends_at, finished_at, error_message, " +
  "metrics.cv.{corr, aimc_estimate, ncorr}.{mean, std}, feature_manifest.features, trainer_python_version, artifact}";
const notFound = texts("job_not_found");
const jobId = (c: { req: { param(name: string): string | undefined } }) => c.req.param("job_id") as string;

/** Hosted compute for events: training jobs drawn from each agent's compute grant. */
export const computeRoutes = [
  route({
    method: "POST",
    path: "/api/v1/compute/train",
    operationId: "train",
    summary: "Launches a hosted training job (202): model ridge, random_forest, mlp, xgboost, lightgbm (where the training Python imports it) or custom (with custom_model_fn), optionally on a train_filter; or with dry_run: true prices it (200) without reserving anything",
    key: "required",
    body: "TrainBody",
    responses: {
      200: "dry_run: {dry_run, estimated_hold_cents, max_runtime_seconds, estimated_runtime_seconds, estimated_cost_cents, rate_usd_per_hr, model, gpu, universe, target, features, max_hours}",
      202: jobView,
      400: texts("train_seed_top_level", "train_unknown_fields", "train_field_invalid", "train_model_unsupported", "custom_model_fn_unsafe"),
      403: texts("hackathon_not_started", "compute_not_live", "compute_no_budget"),
      409: texts("compute_insufficient_credit"),
      503: `${texts("compute_paused")} | ${texts("custom_model_fn_unchecked")}`,
    },
    handle: async ({ c, service, key, body }) => {
      const answer = await service.train(key, body);
      return c.json(answer, "dry_run" in answer ? 200 : 202);
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/jobs",
    operationId: "list_compute_jobs",
    summary: "The caller's training jobs, oldest first",
    key: "required",
    responses: { 200: `{jobs: [${jobView}]}` },
    handle: async ({ c, service, key }) => c.json(await service.listJobs(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/jobs/{job_id}",
    operationId: "get_job_status",
    summary: "One of the caller's training jobs",
    key: "required",
    responses: { 200: jobView, 404: notFound },
    handle: async ({ c, service, key }) => c.json(await service.getJob(key, jobId(c))),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/jobs/{job_id}/log",
    operationId: "get_job_log",
    summary: "A job's lifecycle trail at simulated times: queued, running, each CV fold's result (once completed), completed | failed | timeout | cancelled",
    key: "required",
    responses: {
      200: "{job_id, status, entries: [{at, event: queued|running|fold|completed|failed|timeout|cancelled, ...}]}",
      404: notFound,
    },
    handle: async ({ c, service, key }) => c.json(await service.getJobLog(key, jobId(c))),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/compute/jobs/{job_id}",
    operationId: "cancel_job",
    summary: "Cancels a queued or running job: charged for the seconds it ran, its hold released",
    key: "required",
    responses: { 200: jobView, 404: notFound, 409: texts("job_already_finished") },
    handle: async ({ c, service, key }) => c.json(await service.cancelJob(key, jobId(c))),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/jobs/{job_id}/model",
    operationId: "get_model_download_url",
    summary: "Where a completed job's model can be downloaded: {download_url, filename, sha256} (Basecamp's URL takes the same X-API-Key; it is not presigned)",
    key: "required",
    responses: { 200: "{download_url, filename, sha256}", 404: `${notFound} | ${texts("job_model_absent")}`, 409: texts("job_model_not_ready") },
    handle: async ({ service, key, c }) => {
      const model = await service.downloadModel(key, jobId(c));
      const download_url = `${new URL(c.req.url).origin}/api/v1/compute/jobs/${encodeURIComponent(jobId(c))}/model/file`;
      return c.json({ download_url, filename: model.filename, sha256: model.sha256 });
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/jobs/{job_id}/model/file",
    operationId: "download_model",
    summary: "A completed job's model: a cloudpickled predict(live_features, live_benchmark_models=None) callable",
    key: "required",
    produces: "application/octet-stream",
    responses: { 200: "<job_id>.pkl", 404: `${notFound} | ${texts("job_model_absent")}`, 409: texts("job_model_not_ready") },
    handle: async ({ service, key, c }) => {
      const model = await service.downloadModel(key, jobId(c));
      return new Response(model.bytes as Uint8Array<ArrayBuffer>, {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": `attachment; filename="${model.filename}"`,
          "x-model-sha256": model.sha256,
        },
      });
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/credits",
    operationId: "get_compute_credits",
    summary: "The caller's compute grant: available_cents, reserved_cents (held by open jobs), total_spent_usd",
    key: "required",
    responses: { 200: "{grant_cents, available_cents, reserved_cents, total_spent_usd}" },
    handle: async ({ c, service, key }) => c.json(await service.computeCredits(key)),
  }),
];
