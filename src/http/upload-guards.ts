import type { MiddlewareHandler } from "hono";
import type { EventSettings } from "../service/kernel/deployment.js";
import type { Lane } from "../store/uploads.js";
import type { Service } from "../service/service.js";
import { bodyPace, PacedBody } from "./body-pace.js";
import { callerAddress } from "./caller.js";
import { renderError } from "./render.js";
import { replaceBody, requestBody } from "./request-body.js";

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
 * A place in the lane's bounded intake for the caller's agent, taken once the key is authenticated
 * (a missing or unknown key gets its 401 and never holds a place) and before anything reads the
 * body: a lane that is full, or whose share for this agent is, answers 503 with `Retry-After: 5`
 * at once. While the body streams it must keep the event's pace (src/http/body-pace.ts); one
 * that stalls or trickles is dropped: its place is given back at once and the answer is 408
 * `upload_body_too_slow` with `Connection: close`, so the server closes the connection behind it.
 * Otherwise the place is given back once the service has answered.
 */
export function intakeSlot(service: Service, lane: Lane): MiddlewareHandler {
  return async (c, next) => {
    const release = service.intakeSlot(c.req.header("x-api-key"), lane, callerAddress(c));
    const event = service.ctx.world.deployment.event;
    const source = requestBody(c);
    const paced = event && source ? new PacedBody(source, bodyPace(event), release) : undefined;
    if (paced) replaceBody(c, paced.body);
    try {
      await next();
    } finally {
      paced?.stop();
      release();
    }
    if (paced?.stalled) {
      c.res = renderError(paced.refusal);
      c.res.headers.set("Connection", "close");
    }
  };
}
