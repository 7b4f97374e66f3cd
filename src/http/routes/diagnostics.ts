import { route } from "../route.js";
import { batchRoute, uploadRoute } from "./event-uploads.js";

const notFound = "Upload {id} not found (also another agent's run)";

/** The practice board lane (never fenced, free of the pool), the runs of both lanes, the practice board. */
export const diagnosticsRoutes = [
  uploadRoute("practice", "submit_validation_diagnostics", "Practice board lane: one multipart upload, 202; open in every phase of a running event"),
  batchRoute("practice", "submit_diagnostics_batch", "Practice board lane: a batch of 1 to 25 uploads; 202 when all succeeded, else 207"),
  route({
    method: "GET",
    path: "/api/v1/diagnostics/runs/{upload_id}",
    operationId: "get_run",
    summary: "A run of either lane: accepted → scoring → finalised | failed | cancelled",
    key: "required",
    responses: { 200: "RunView", 404: notFound },
    handle: async ({ c, service, key }) => c.json(await service.getRun(key, c.req.param("upload_id") as string)),
  }),
  route({
    method: "DELETE",
    path: "/api/v1/diagnostics/runs/{upload_id}",
    operationId: "delete_run",
    summary: "Cancels a queued or scoring run (its pool place comes back); removes a failed or cancelled one before a retry",
    key: "required",
    responses: { 200: "{upload_id, status: cancelled | removed}", 404: notFound, 409: "Upload {id} was already finalized." },
    handle: async ({ c, service, key }) => c.json(await service.deleteRun(key, c.req.param("upload_id") as string)),
  }),
  route({
    method: "GET",
    path: "/api/v1/diagnostics/board",
    operationId: "get_practice_board",
    summary: "The practice board: each model's latest practice score; display only, never counts",
    key: "required",
    responses: { 200: "Board + {rank_metric: practice_score, display_only: true}" },
    handle: async ({ c, service, key }) => c.json(await service.practiceBoard(key)),
  }),
];
