import type { MiddlewareHandler } from "hono";
import type { EventSettings } from "../service/deployment.js";
import type { Lane } from "../service/event/upload-repo.js";
import type { Service } from "../service/service.js";

/** Room for the text fields, a batch manifest and the multipart framing around the files. */
export const FORM_SLACK_BYTES = 64 * 1024;

/**
 * The body limit of a multipart upload carrying the files of up to `items` uploads: each may hold
 * a model file and a predictions file at their own limits, so a body under this limit always
 * reaches the service, which names the per-file limit it breaks (`Model file too large`,
 * `File too large`). Without event settings the route refuses anyway: `fallback`.
 */
export function uploadBodyLimit(event: EventSettings | undefined, items: number, fallback: number): number {
  if (!event) return fallback;
  return items * (event.model_file.max_bytes + event.predictions_max_bytes) + FORM_SLACK_BYTES;
}

/**
 * A place in the lane's bounded intake, taken before anything reads the body (a saturated lane
 * answers 503 with `Retry-After: 5` at once) and given back once the service has answered.
 */
export function intakeSlot(service: Service, lane: Lane): MiddlewareHandler {
  return async (_c, next) => {
    const release = service.intakeSlot(lane);
    try {
      await next();
    } finally {
      release();
    }
  };
}
