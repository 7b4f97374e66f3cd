import type { z } from "zod";
import type { BodyName, FormName } from "./schemas.js";

/**
 * Who may call an operation: any valid key (`key`), any key but an LLM-scoped one (`reader`), a key
 * or none (`optional`: answers even a bad key), no key at all (`none`), or the scenario's organiser.
 */
export type OperationScope = "key" | "reader" | "optional" | "none" | "organiser";

/** An event lane: the cadence-fenced round lane or the practice board lane. */
export type Lane = "round" | "practice";

export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * One REST endpoint of an operation. `path` is in OpenAPI form (`/api/v1/models/{model}/archive`);
 * its parameters are the operation's first arguments, in order, then the JSON body (whole, or the
 * `bodyFields` one by one). `fixed` gives every argument instead (an endpoint that is one case
 * of the operation: pause is `holdClock(true)`).
 */
export interface RestRoute {
  method: HttpMethod;
  path: string;
  /** The router's pattern where it cannot be derived from `path` (a parameter with a literal suffix, or one spanning slashes). */
  hono?: string;
  /** The spec's name of the endpoint (OpenAPI `operationId`). */
  operationId: string;
  summary: string;
  /** A JSON body, checked by the named schema. */
  body?: BodyName;
  /** The body's fields that are the operation's arguments, in order (else the whole body is one argument). */
  bodyFields?: string[];
  /** A multipart form body, checked by the named schema (the face turns it into arguments). */
  form?: FormName;
  /**
   * A multipart upload on an event lane, carrying the files of up to `items` uploads: it takes a
   * place in the lane's bounded intake before its body is read, and its body limit is derived
   * from the event's file limits.
   */
  upload?: { lane: Lane; items: number };
  /** A body limit of its own, named by the deployment's setting it follows (the auto-submit lane's model file). */
  bodyLimit?: "auto_submit_model_file";
  fixed?: readonly unknown[];
  /** How the path's parameters and the JSON body make the arguments, and back (for a client), where the rule above does not fit. */
  codec?: RestCodec;
  /** The status of an answer (default 200), or how the answer decides it. */
  status?: number | ((answer: any) => number);
  /** Status → description (catalogue texts where the catalogue has them), besides the general errors every keyed route can give. */
  responses: Record<number, string>;
  /** Media type of the 200/201 answer. */
  produces?: "application/json" | "application/vnd.apache.parquet" | "application/octet-stream";
}

export interface RestCodec {
  args(params: Record<string, string>, body: any): unknown[];
  request(args: readonly any[]): { params: Record<string, string>; body?: unknown };
}

/**
 * One MCP tool of an operation: its arguments checked by `input`, then turned into the operation's
 * arguments by `args` (default: the REST path's parameters by name, then the rest of the arguments
 * as the body, or its `bodyFields`).
 */
export interface McpTool {
  name: string;
  description: string;
  input: z.ZodRawShape;
  /** A read: the tool changes nothing (MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** Arguments beyond `input` reach the service instead of being dropped, so it can refuse them by name. */
  loose?: boolean;
  args?: (input: Record<string, unknown>) => unknown[];
  /** What the tool answers of the operation's result (default: all of it). */
  answer?: (result: any) => unknown;
}

/**
 * An operation of the service, once for every face: who may call it, the rate limit it counts
 * against (per key and endpoint: one operation is one endpoint; absent for calls never counted),
 * its REST endpoints and its MCP tools. The service binds it to its handler by the operation's
 * key (the method name every face calls it by: `createModel`).
 */
export interface Operation {
  scope: OperationScope;
  /** The rate limit's name, or how the arguments name it (each legacy staking tool counts on its own). */
  rate?: string | ((args: readonly unknown[]) => string);
  rest: readonly RestRoute[];
  mcp?: readonly McpTool[];
  /** Not in a participant's client (the organiser's operations never are): a retired path, kept for its refusal. */
  client?: false;
}

/** An operation entry, checked against `Operation` while keeping its literal type. */
export const operation = <const O extends Operation>(o: O): O => o;
