/**
 * A refusal as the SDK sees it over HTTP: the service's status, its `detail.code` and
 * `detail.message`, the whole `detail` object, and the `Retry-After` it gave (seconds, or null).
 * It carries `status`, `code` and `message` like the in-process `ServiceError`, so code that
 * handles one handles the other.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail: Record<string, unknown>,
    readonly retryAfter: number | null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const GATE_MESSAGE =
  "the access gate bounced the request: set CF_ACCESS_CLIENT_ID / CF_ACCESS_CLIENT_SECRET";

/**
 * The ApiError for a response that is not a success. A 3xx is the access gate (a key-only request
 * redirected to its login); a body without a JSON `detail` object (an error page, a plain-text
 * `detail`) keeps its text as the message under the code `http_<status>`.
 */
export async function apiErrorFrom(res: Response): Promise<ApiError> {
  if (res.status >= 300 && res.status < 400) {
    const location = res.headers.get("location");
    return new ApiError(res.status, "access_gate", GATE_MESSAGE, location ? { location } : {}, null);
  }
  const text = await res.text();
  const detail = detailOf(text);
  const retryAfter = retryAfterOf(res.headers.get("retry-after"), detail);
  if (detail && typeof detail.code === "string" && typeof detail.message === "string") {
    return new ApiError(res.status, detail.code, detail.message, detail, retryAfter);
  }
  const message = typeof detail?.message === "string" ? detail.message : text.slice(0, 500) || res.statusText;
  return new ApiError(res.status, `http_${res.status}`, message, detail ?? {}, retryAfter);
}

/** `{"detail": {...}}` as an object; a string detail becomes `{message}`; anything else null. */
function detailOf(text: string): Record<string, unknown> | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null || !("detail" in body)) return null;
  const detail = (body as { detail: unknown }).detail;
  if (typeof detail === "string") return { message: detail };
  if (typeof detail === "object" && detail !== null && !Array.isArray(detail)) return detail as Record<string, unknown>;
  return null;
}

/** Seconds to wait: the `Retry-After` header (delta-seconds), else `detail.retry_after_seconds`. */
function retryAfterOf(header: string | null, detail: Record<string, unknown> | null): number | null {
  if (header !== null && /^\d+(\.\d+)?$/.test(header.trim())) return Number(header.trim());
  const fromBody = detail?.retry_after_seconds;
  return typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0 ? fromBody : null;
}
