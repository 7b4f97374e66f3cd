import type { ServiceError } from "../domain/errors.js";

/**
 * A refusal as HTTP: status from the catalogue, body `{"detail": {"code", "message", ...extra}}`,
 * and every header the error carries (`Retry-After` on a cadence fence or a saturated lane).
 */
export function renderError(e: ServiceError): Response {
  return new Response(JSON.stringify({ detail: e.detail }), {
    status: e.status,
    headers: { "content-type": "application/json", ...e.headers },
  });
}

