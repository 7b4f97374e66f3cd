import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { argsOf, pathParams, requestOf, toolArgs } from "../../src/contract/args.js";
import { operationList, operations } from "../../src/contract/index.js";
import { handlers } from "../../src/service/handlers/index.js";

const routes = operationList.flatMap(([name, op]) => op.rest.map((route) => ({ name, route })));

describe("the contract", () => {
  it("names a rate limit for every keyed operation, and each operation's handler (moving the clock is the service's own)", () => {
    for (const [name, op] of operationList) {
      if (op.scope === "key" || op.scope === "reader") expect(op.rate, name).toBeDefined();
      if (name !== "advanceClock") expect(handlers, name).toHaveProperty(name);
    }
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(operations).filter((n) => n !== "advanceClock").sort());
  });

  it("gives every endpoint its own operationId and method + path, and every tool its own name", () => {
    const ids = routes.map(({ route }) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const endpoints = routes.map(({ route }) => `${route.method} ${route.path}`);
    expect(new Set(endpoints).size).toBe(endpoints.length);
    const tools = operationList.flatMap(([, op]) => (op.mcp ?? []).map((t) => t.name));
    expect(new Set(tools).size).toBe(tools.length);
    for (const { route } of routes) expect(route.path).toMatch(/^\/(api|sim)\/v1\//);
  });

  it("maps arguments to a request and back for every JSON endpoint, whatever the path's values", () => {
    const value = fc.string({ minLength: 1 }).filter((s) => s !== "." && s !== "..");
    for (const { name, route } of routes.filter(({ route }) => !route.form && !route.fixed)) {
      const names = pathParams(route.path);
      fc.assert(
        fc.property(fc.array(value, { minLength: names.length, maxLength: names.length }), fc.dictionary(fc.string(), fc.integer()), (values, body) => {
          const args = route.codec
            ? route.codec.args(Object.fromEntries(names.map((n, i) => [n, values[i]])), { enabled: true })
            : [...values, ...(route.body ? (route.bodyFields ? route.bodyFields.map((f) => body[f]) : [body]) : [])];
          const { path, body: sent } = requestOf(route, args);
          // A parameter matches one segment, or (the router's `{.+}`) several.
          const segment = (n: string) => (route.hono?.includes(`:${n}{.+}`) ? "(.+)" : "([^/]+)");
          const pattern = new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, n: string) => segment(n))}$`);
          const match = pattern.exec(path);
          expect(match, `${name} ${path}`).not.toBeNull();
          const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent((match as RegExpExecArray)[i + 1])]));
          expect(argsOf(route, params, sent), name).toEqual(args);
        }),
        { numRuns: 25 },
      );
    }
  });

  it("takes a tool's path arguments by name and the rest as the body, left-out arguments not sent", () => {
    const [tool] = operations.runOnMachine.mcp;
    expect(toolArgs(operations.runOnMachine, tool, { machine_id: "m_1", command: "ls", extra: undefined })).toEqual(["m_1", { command: "ls" }]);
    const [selection] = operations.setFinalSelection.mcp;
    expect(toolArgs(operations.setFinalSelection, selection, { models: ["a"] })).toEqual([["a"]]);
  });
});
