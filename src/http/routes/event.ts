import { route } from "../route.js";
import { batchRoute, uploadRoute } from "./event-uploads.js";

/** The event round lane (cadence-fenced, draws on the upload pool) and its sealed round boards. */
export const eventRoutes = [
  uploadRoute("round", "submit_event_predictions", "Event round lane: one multipart upload (predictions + model_pkl), 202; fenced outside rounds"),
  batchRoute("round", "submit_event_predictions_batch", "Event round lane: a batch of 1 to 25 uploads; 202 when all succeeded, else 207"),
  route({
    method: "GET",
    path: "/api/v1/event/rounds/{window}/board",
    operationId: "get_event_round_board",
    summary: "One event round's board (window round_N); sealed, with no rows, until the next round opens",
    key: "required",
    responses: { 200: "Board + {window, sealed, unseals_at}", 404: "Round not found" },
    handle: async ({ c, service, key }) => c.json(await service.eventRoundBoard(key, c.req.param("window") as string)),
  }),
];
