import type { Context } from "hono";
import type { z } from "zod";
import type { Service } from "../service/service.js";
import { bodySchemas, type BodyName } from "./schemas.js";

/** Which key a route reads from `X-API-Key`. */
export type KeyUse = "required" | "optional" | "none" | "organiser";

export interface RouteInput<B> {
  c: Context;
  service: Service;
  key: string | undefined;
  body: B;
}

/**
 * One endpoint: what the OpenAPI document says about it and how it is served. `path` is in
 * OpenAPI form (`/api/v1/models/{model}/archive`); `hono` overrides the router's pattern when
 * the two cannot be the same (a parameter with a literal suffix).
 */
export interface Route<B = unknown> {
  method: "GET" | "POST";
  path: string;
  hono?: string;
  operationId: string;
  summary: string;
  key: KeyUse;
  body?: BodyName;
  /** Status → description, besides the general errors every keyed route can give. */
  responses: Record<number, string>;
  /** Media type of the 200/201 answer. */
  produces?: "application/json" | "application/vnd.apache.parquet";
  handle(input: RouteInput<B>): Promise<Response>;
}

/** A route whose handler gets its body typed by the named schema. */
export function route<N extends BodyName | undefined = undefined>(
  r: Omit<Route<N extends BodyName ? z.output<(typeof bodySchemas)[N]> : undefined>, "body"> & { body?: N },
): Route {
  return r as Route;
}

/** The router's pattern: `{name}` → `:name`. */
export function honoPath(r: Route): string {
  return r.hono ?? r.path.replace(/\{(\w+)\}/g, ":$1");
}

/** A regular expression matching the concrete paths of a route. */
export function pathPattern(path: string): RegExp {
  const escaped = path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]+")}$`);
}
