import type { McpTool, Operation, RestRoute } from "./operation.js";

/** The names of a path's parameters, in order: `/models/{model}/archive` → `["model"]`. */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** A parameter whose value may hold slashes (the router's pattern `:name{.+}`): each segment is escaped, the slashes kept. */
const spansSlashes = (route: RestRoute, name: string) => route.hono?.includes(`:${name}{.+}`) === true;

/** The literal text that follows a parameter within its path segment (`{split}_benchmark_models`). */
const suffixOf = (path: string, name: string) => path.split(`{${name}}`)[1]?.split("/")[0] ?? "";

/** A concrete path: the route's parameters filled in, escaped. */
export function fillPath(route: RestRoute, params: Record<string, string>): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    return spansSlashes(route, name) ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
  });
}

/**
 * The operation's arguments from a request: the route's fixed ones, or the path's parameters (as
 * the router matched them, less their literal suffix) then the body, whole or field by field.
 */
export function argsOf(route: RestRoute, params: Record<string, string>, body: unknown): unknown[] {
  if (route.codec) return route.codec.args(params, body);
  if (route.fixed) return [...route.fixed];
  const fromPath = pathParams(route.path).map((name) => {
    const suffix = suffixOf(route.path, name);
    const value = params[name];
    return suffix && value.endsWith(suffix) ? value.slice(0, -suffix.length) : value;
  });
  if (!route.body) return fromPath;
  const record = body as Record<string, unknown>;
  return [...fromPath, ...(route.bodyFields ? route.bodyFields.map((f) => record[f]) : [body])];
}

/** A request from the operation's arguments (a client's side of `argsOf`): its path and its JSON body. */
export function requestOf(route: RestRoute, args: readonly unknown[]): { path: string; body?: unknown } {
  if (route.codec) {
    const { params, body } = route.codec.request(args);
    return { path: fillPath(route, params), body };
  }
  const names = pathParams(route.path);
  const path = fillPath(route, Object.fromEntries(names.map((name, i) => [name, String(args[i])])));
  const rest = args.slice(names.length);
  if (!route.body) return { path };
  return { path, body: route.bodyFields ? Object.fromEntries(route.bodyFields.map((f, i) => [f, rest[i]])) : rest[0] };
}

/** The arguments the caller gave: an optional argument left out is not a field of the call. */
export function definedOnly(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

/**
 * An MCP tool's arguments as the operation's: the tool's own rule, else the operation's first REST
 * path's parameters by name, then the other arguments given as its body (whole, or its fields).
 */
export function toolArgs(op: Operation, tool: McpTool, input: Record<string, unknown>): unknown[] {
  if (tool.args) return tool.args(input);
  const route = op.rest[0];
  const names = pathParams(route.path);
  const fromPath = names.map((name) => input[name]);
  if (!route.body) return fromPath;
  const body = definedOnly(Object.fromEntries(Object.entries(input).filter(([k]) => !names.includes(k))));
  return [...fromPath, ...(route.bodyFields ? route.bodyFields.map((f) => body[f]) : [body])];
}
