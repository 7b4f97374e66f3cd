import type { MiddlewareHandler } from "hono";
import type { Deployment } from "../service/kernel/deployment.js";

/** Where the access gate bounces a request; the page itself is served by `loginPage`. */
export const LOGIN_PATH = "/cdn-cgi/access/login";

/**
 * The access gate in front of the API hosts (public facts, section 8): with service-token
 * credentials configured, a request without both correct `CF-Access-Client-Id` and
 * `CF-Access-Client-Secret` gets a 302 to a login page, before any API logic and with no JSON.
 */
export function accessGate(gate: Deployment["gate"]): MiddlewareHandler {
  return async (c, next) => {
    if (gate === null) return next();
    const id = c.req.header("cf-access-client-id");
    const secret = c.req.header("cf-access-client-secret");
    if (id === gate.client_id && secret === gate.client_secret) return next();
    const url = new URL(c.req.url);
    return c.redirect(`${LOGIN_PATH}?redirect_url=${encodeURIComponent(url.pathname + url.search)}`, 302);
  };
}

/** What a client that follows the redirect lands on: an HTML page, not an API answer. */
export function loginPage(): Response {
  return new Response(
    "<!doctype html><title>Sign in</title><p>This host is behind an access gate. Send CF-Access-Client-Id and CF-Access-Client-Secret with your request.</p>",
    { headers: { "content-type": "text/html; charset=utf-8" } },
  );
}
