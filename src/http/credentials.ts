import type { MiddlewareHandler } from "hono";
import { refuse } from "../domain/errors.js";

/** Query parameters that look like an API key, compared case-insensitively. */
const KEY_PARAMS = new Set(["api_key", "apikey", "api-key", "key", "x-api-key", "x_api_key"]);

/** A key in the query string is refused with 401 (spec, Authentication 3), on /api/v1 and /mcp alike. */
export const noKeyInQuery: MiddlewareHandler = async (c, next) => {
  if (!c.req.url.includes("?")) return next();
  for (const name of new URL(c.req.url).searchParams.keys()) {
    if (KEY_PARAMS.has(name.toLowerCase())) throw refuse("key_in_query_refused");
  }
  return next();
};

/** On /api/v1 the key travels only in `X-API-Key`: any `Authorization` header is refused with 401 (Authentication 1-2). */
export const noAuthorizationHeader: MiddlewareHandler = async (c, next) => {
  if (c.req.header("authorization") !== undefined) throw refuse("authorization_header_refused");
  return next();
};
