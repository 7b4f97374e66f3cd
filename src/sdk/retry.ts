import type { ApiError } from "./api-error.js";

/** When the cadence fence names no wait (the notebooks' default). */
const FENCE_DEFAULT_SECONDS = 2;
/** The spec's wait for a saturated upload lane. */
const SATURATED_SECONDS = 5;
/** 429 backoff: 1, 2, 4 ... seconds, never more than this. */
const BACKOFF_CAP_SECONDS = 32;

/**
 * The spec's retry rules: how long to wait (ms) before retry number `attempt` (0-based) after
 * `error`, or null when the error is not retried.
 * - 409 `cadence_not_open`: the `Retry-After` seconds (or `retry_after_seconds`).
 * - 503: 5 s (or the `Retry-After` given).
 * - 429: exponential backoff, since the service sends no `Retry-After` (1, 2, 4 ... capped at 32 s;
 *   six retries wait 63 s in all, enough to outlast a one-minute fixed window).
 */
export function retryDelayMs(error: ApiError, attempt: number): number | null {
  if (error.status === 409 && error.code === "cadence_not_open") return 1000 * (error.retryAfter ?? FENCE_DEFAULT_SECONDS);
  if (error.status === 503) return 1000 * (error.retryAfter ?? SATURATED_SECONDS);
  if (error.status === 429) return 1000 * Math.min(2 ** attempt, BACKOFF_CAP_SECONDS);
  return null;
}
