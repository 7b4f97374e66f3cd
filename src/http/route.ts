import { operationList, openApiRoute, type OperationName, type OperationScope, type RestRoute } from "../contract/index.js";

/** Which key a route reads from `X-API-Key`. */
export type KeyUse = "required" | "optional" | "none" | "organiser";

/** One served endpoint: the contract's route, the operation it calls (none for the OpenAPI document) and the key it reads. */
export interface Route extends RestRoute {
  operation?: OperationName;
  key: KeyUse;
}

const keyUse: Record<OperationScope, KeyUse> = { key: "required", reader: "required", optional: "optional", none: "none", organiser: "organiser" };

/** Every served route, in the contract's order, then the OpenAPI document. */
export const routes: Route[] = [
  ...operationList.flatMap(([operation, op]) => op.rest.map((r) => ({ ...r, operation, key: keyUse[op.scope] }))),
  { ...openApiRoute, key: "none" },
];

/** The router's pattern: `{name}` → `:name`. */
export function honoPath(r: Route): string {
  return r.hono ?? r.path.replace(/\{(\w+)\}/g, ":$1");
}

/** A regular expression matching the concrete paths of a route. */
export function pathPattern(path: string): RegExp {
  const escaped = path.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]+")}$`);
}
