import { Hono, type Context, type Handler, type MiddlewareHandler } from "hono";
import { argsOf } from "../contract/args.js";
import { API_PREFIX } from "../contract/index.js";
import { bodySchemas, formSchemas } from "../contract/schemas.js";
import { asServiceError, refuse, type ServiceError } from "../domain/errors.js";
import { handleMcpPost } from "../mcp/http.js";
import { autoSubmitSettings } from "../service/kernel/settings/auto-submit.js";
import type { LiveFeed } from "../service/live/live-feed.js";
import type { Service } from "../service/service.js";
import { answer } from "./answers.js";
import { bodyLimit } from "./body-limit.js";
import { callerAddress } from "./caller.js";
import { noAuthorizationHeader, noKeyInQuery } from "./credentials.js";
import { accessGate, LOGIN_PATH, loginPage } from "./gate.js";
import { FileSpool } from "./file-spool.js";
import { formArgs } from "./form-args.js";
import { parseFormBody } from "./form-body.js";
import { parseJsonBody } from "./json-body.js";
import { openApiDocument } from "./openapi.js";
import { honoPath, pathPattern, routes, type Route } from "./route.js";
import { renderError } from "./render.js";
import { requestBody } from "./request-body.js";
import { FORM_SLACK_BYTES, intakeSlot, uploadBodyLimit } from "./upload-guards.js";
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

/** A form's file parts past this size wait on disk until the service reads them. */
const SPOOL_THRESHOLD_BYTES = 1024 * 1024;

/**
 * Runs `fn` with the operation's arguments from the request: its path's parameters, then its JSON
 * body checked by its schema, or its form (whose spooled files are removed once `fn` has answered).
 */
async function withArgs(r: Route, c: Context, fn: (args: unknown[]) => Promise<Response>): Promise<Response> {
  const params = c.req.param() as Record<string, string>;
  if (!r.form) return fn(argsOf(r, params, r.body ? await parseJsonBody(c.req.raw, bodySchemas[r.body]) : undefined));
  const spool = new FileSpool(SPOOL_THRESHOLD_BYTES);
  try {
    const form = await parseFormBody(c.req.header("content-type") ?? "", requestBody(c), formSchemas[r.form], spool);
    const toArgs = formArgs[r.form] as (form: unknown, params: Record<string, string>) => Promise<unknown[]>;
    return await fn([...(r.fixed ?? []), ...(await toArgs(form, params))]);
  } finally {
    await spool.dispose();
  }
}

/** A route's handler: the key from `X-API-Key`, the arguments from the request, the operation, then its answer. */
function handler(r: Route, service: Service): Handler {
  const operation = r.operation;
  if (!operation) return (c) => c.json(openApiDocument(routes, "1"));
  return (c) => withArgs(r, c, async (args) => answer(r, c, await service.perform(operation, c.req.header("x-api-key"), args, callerAddress(c)), args, service));
}

/** A body limit a route takes from the deployment: the file at its limit still reaches the service, which names that limit. */
const ownBodyLimits = {
  auto_submit_model_file: (service: Service) => autoSubmitSettings(service.ctx).model_file.max_bytes + FORM_SLACK_BYTES,
};

/**
 * What runs before a route's handler: an upload first authenticates its key and takes its
 * agent's place in the lane's intake (so a bad key or a saturated lane answers before the body is
 * read, and the body is watched for pace), then the body limit (an upload's derived from the
 * event's file limits).
 */
function guards(r: Route, service: Service, limit: number): MiddlewareHandler[] {
  const maxSize = r.upload
    ? uploadBodyLimit(service.ctx.world.deployment.event, r.upload.items, limit)
    : r.bodyLimit
      ? ownBodyLimits[r.bodyLimit](service)
      : limit;
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
  app.use(`${API_PREFIX}*`, accessGate(service.ctx.world.deployment.gate));
  app.use(`${API_PREFIX}*`, noAuthorizationHeader, noKeyInQuery);
  app.get(LOGIN_PATH, () => loginPage());
  // The MCP face: behind the same gate, keyed by X-API-Key or Bearer (src/mcp/http.ts), never by the query; POST only.
  app.use("/mcp", accessGate(service.ctx.world.deployment.gate), noKeyInQuery);
  app.post("/mcp", (c) => handleMcpPost(service, c.req.raw, log, callerAddress(c)));
  app.all("/mcp", (c) => renderError(refuse("method_not_allowed", { method: c.req.method, path: "/mcp", allowed: "POST" }, { headers: { Allow: "POST" } })));
  if (options.web) registerWebApp(app, service, options.web);
  for (const r of routes) {
    for (const guard of guards(r, service, limit)) app.on(r.method, honoPath(r), guard);
    app.on(r.method, honoPath(r), handler(r, service));
  }
  return app;
}
