import type { Context } from "hono";
import type { z } from "zod";
import type { Service } from "../service/service.js";
import type { Lane } from "../store/uploads.js";
import { bodySchemas, formSchemas, type BodyName, type FormName } from "./schemas.js";

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
  method: "GET" | "POST" | "DELETE";
  path: string;
  hono?: string;
  operationId: string;
  summary: string;
  key: KeyUse;
  /** A JSON body, checked by the named schema. */
  body?: BodyName;
  /** A multipart form body, checked by the named schema. */
  form?: FormName;
  /**
   * A multipart upload on an event lane, carrying the files of up to `items` uploads: it takes a
   * place in the lane's bounded intake before its body is read, and its body limit is derived
   * from the event's file limits.
   */
  upload?: { lane: Lane; items: number };
  /** A body limit of its own, derived from the deployment (a file upload whose per-file limit the service names). */
  bodyLimit?: (service: Service) => number;
  /** Status → description, besides the general errors every keyed route can give. */
  responses: Record<number, string>;
  /** Media type of the 200/201 answer. */
  produces?: "application/json" | "application/vnd.apache.parquet" | "application/octet-stream";
  handle(input: RouteInput<B>): Promise<Response>;
}

type Parsed<N, F> = N extends BodyName
  ? z.output<(typeof bodySchemas)[N]>
  : F extends FormName
    ? z.output<(typeof formSchemas)[F]>
    : undefined;

/** A route whose handler gets its body typed by the named schema. */
export function route<N extends BodyName | undefined = undefined, F extends FormName | undefined = undefined>(
  r: Omit<Route<Parsed<N, F>>, "body" | "form"> & { body?: N; form?: F },
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
