import { Hono, type Handler, type MiddlewareHandler } from "hono";
import { asServiceError, refuse, type ServiceError } from "../domain/errors.js";
import { handleMcpPost } from "../mcp/http.js";
import type { LiveFeed } from "../service/live/live-feed.js";
import type { Service } from "../service/service.js";
import { bodyLimit } from "./body-limit.js";
import { callerAddress } from "./caller.js";
import { noAuthorizationHeader, noKeyInQuery } from "./credentials.js";
import { accessGate, LOGIN_PATH, loginPage } from "./gate.js";
import { FileSpool } from "./file-spool.js";
import { parseFormBody } from "./form-body.js";
import { parseJsonBody } from "./json-body.js";
import { openApiDocument } from "./openapi.js";
import { honoPath, pathPattern, route, type Route } from "./route.js";
import { boardRoutes } from "./routes/boards.js";
import { computeRoutes } from "./routes/compute.js";
import { machineRoutes } from "./routes/machine.js";
import { dataRoutes } from "./routes/data.js";
import { diagnosticsRoutes } from "./routes/diagnostics.js";
import { eventRoutes } from "./routes/event.js";
import { eventStakingRoutes, finalWindowRoutes } from "./routes/event-staking.js";
import { modelFileRoutes } from "./routes/model-files.js";
import { modelRoutes } from "./routes/models.js";
import { roundRoutes } from "./routes/rounds.js";
import { simRoutes } from "./routes/sim.js";
import { stakingRoutes } from "./routes/staking.js";
import { statusRoutes } from "./routes/status.js";
import { submitRoutes } from "./routes/submit.js";
import { renderError } from "./render.js";
import { bodySchemas, formSchemas } from "./schemas.js";
import { intakeSlot, uploadBodyLimit } from "./upload-guards.js";
import { registerWebApp } from "./web-routes.js";

/** Largest request body accepted, in bytes, unless the server is told otherwise. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  bodyLimitBytes?: number;
  /** Where internal errors are reported (default: stderr). */
  log?: (line: string) => void;
  /** Serves the web app at `/` (pages, assets, live streams fed by this feed, which also hears of refusals). */
  web?: LiveFeed;
}

/** Every served route but the OpenAPI document, in registration order (the benchmark download before the dataset download). */
const serviceRoutes: Route[] = [
  ...statusRoutes,
  ...roundRoutes,
  ...dataRoutes,
  ...boardRoutes,
  ...modelRoutes,
  ...modelFileRoutes,
  ...submitRoutes,
  ...stakingRoutes,
  ...eventRoutes,
  ...eventStakingRoutes,
  ...finalWindowRoutes,
  ...computeRoutes,
  ...machineRoutes,
  ...diagnosticsRoutes,
  ...simRoutes,
];

const openApiRoute = route({
  method: "GET",
  path: "/api/v1/openapi.json",
  operationId: "openapi",
  summary: "This document",
  key: "none",
  responses: { 200: "The OpenAPI 3.1 document" },
  handle: async ({ c }) => c.json(openApiDocument(routes, "1")),
});

/** Every route, as the OpenAPI document lists them. */
export const routes: Route[] = [...serviceRoutes, openApiRoute];

/** A form's file parts past this size wait on disk until the service reads them. */
const SPOOL_THRESHOLD_BYTES = 1024 * 1024;

/**
 * A route's handler: the key from `X-API-Key`, the body checked by its schema, then the route.
 * A form's spooled files are removed once the route has answered.
 */
function handler(r: Route, service: Service): Handler {
  return async (c) => {
    const key = c.req.header("x-api-key");
    if (r.form) {
      const spool = new FileSpool(SPOOL_THRESHOLD_BYTES);
      try {
        return await r.handle({ c, service, key, body: await parseFormBody(c.req.raw, formSchemas[r.form], spool) });
      } finally {
        await spool.dispose();
      }
    }
    const body = r.body ? await parseJsonBody(c.req.raw, bodySchemas[r.body]) : undefined;
    return r.handle({ c, service, key, body });
  };
}

/**
 * What runs before a route's handler: an upload first authenticates its key and takes its
 * agent's place in the lane's intake (so a bad key or a saturated lane answers before the body is
 * read, and the body is watched for pace), then the body limit (an upload's derived from the
 * event's file limits).
 */
function guards(r: Route, service: Service, limit: number): MiddlewareHandler[] {
  const maxSize = r.upload
    ? uploadBodyLimit(service.ctx.world.deployment.event, r.upload.items, limit)
    : (r.bodyLimit?.(service) ?? limit);
  const tooLarge = bodyLimit(maxSize);
  return r.upload ? [intakeSlot(service, r.upload.lane), tooLarge] : [tooLarge];
}

/** No route matched: 405 (with `Allow`) when the path exists under another method, else 404. */
function unmatched(method: string, path: string): ServiceError {
  const allowed = routes.filter((r) => pathPattern(r.path).test(path)).map((r) => r.method);
  if (allowed.length === 0) return refuse("not_found", { what: `${method} ${path}` });
  const allow = [...new Set(allowed)].join(", ");
  return refuse("method_not_allowed", { method, path, allowed: allow }, { headers: { Allow: allow } });
}

/**
 * The HTTP face: the access gate and the key-only-in-header rule on /api/v1, then per route its
 * guards (intake slot, body limit) and its handler (parse, call the service, map the result).
 * Every refusal is rendered from the service's catalogue.
 */
export function createApp(service: Service, options: AppOptions): Hono {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const app = new Hono();
  app.onError((e, c) => {
    const error = asServiceError(e, log);
    const refusal = { method: c.req.method, path: c.req.path, status: error.status, code: error.code, message: error.message };
    options.web?.refused(c.req.header("x-api-key"), refusal);
    return renderError(error);
  });
  app.notFound((c) => renderError(unmatched(c.req.method, c.req.path)));
  app.use("/api/v1/*", accessGate(service.ctx.world.deployment.gate));
  app.use("/api/v1/*", noAuthorizationHeader, noKeyInQuery, callerAddress);
  app.get(LOGIN_PATH, () => loginPage());
  // The MCP face: behind the same gate, keyed by X-API-Key or Bearer (src/mcp/http.ts), never by the query; POST only.
  app.use("/mcp", accessGate(service.ctx.world.deployment.gate), noKeyInQuery, callerAddress);
  app.post("/mcp", (c) => handleMcpPost(service, c.req.raw, log));
  app.all("/mcp", (c) => renderError(refuse("method_not_allowed", { method: c.req.method, path: "/mcp", allowed: "POST" }, { headers: { Allow: "POST" } })));
  if (options.web) registerWebApp(app, service, options.web);
  for (const r of routes) {
    for (const guard of guards(r, service, limit)) app.on(r.method, honoPath(r), guard);
    app.on(r.method, honoPath(r), handler(r, service));
  }
  return app;
}
