import type { MiddlewareHandler } from "hono";
import { refuse } from "../domain/errors.js";

/** Query parameters that look like an API key, compared case-insensitively. */
const KEY_PARAMS = new Set(["api_key", "apikey", "api-key", "key", "x-api-key", "x_api_key"]);

/**
 * The key travels only in `X-API-Key` (spec, Authentication 1-3): on /api/v1 any `Authorization`
 * header, and a key in the query string, are refused with 401 before the route runs.
 */
export const keyOnlyInHeader: MiddlewareHandler = async (c, next) => {
  if (c.req.header("authorization") !== undefined) throw refuse("authorization_header_refused");
  for (const name of new URL(c.req.url).searchParams.keys()) {
    if (KEY_PARAMS.has(name.toLowerCase())) throw refuse("key_in_query_refused");
  }
  return next();
};
