import { register } from "node:module";

/** The name strategy modules import the Strategy API by: the package's `exports` entry for sim/strategy-api. */
export const STRATEGY_API = "basecamp-sim/strategy";

/**
 * Resolves STRATEGY_API as the URL it is given (through the hooks after it, tsx's among them), and
 * loads a TypeScript file outside node_modules as an ES module (a strategy has a default export)
 * even in a folder without a package.json saying "type": "module".
 */
const hook = `let api;
export function initialize(data) { api = data; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier === api.name ? api.url : specifier, context);
  const path = new URL(resolved.url).pathname;
  const esm = resolved.format === "commonjs" && /\\.tsx?$/.test(path) && !path.includes("/node_modules/");
  return esm ? { ...resolved, format: "module" } : resolved;
}`;

let prepared: Promise<void> | null = null;

/**
 * Readies this process to import strategy modules: `import … from "basecamp-sim/strategy"` in a
 * module anywhere (beside a global install, a checkout, or a project with the package installed)
 * resolves to the running Basecamp's own Strategy API, so its StrategyFailure is the engine's; and
 * when Basecamp runs compiled, tsx's loader is registered so a .ts module can be imported at all.
 */
export function prepareStrategyImports(): Promise<void> {
  prepared ??= (async () => {
    // From the sources (tsx, vitest) this file is .ts and a TypeScript loader is in place already.
    if (!import.meta.url.endsWith(".ts")) (await import("tsx/esm/api")).register();
    const url = new URL("../strategy-api.js", import.meta.url).href;
    register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { name: STRATEGY_API, url } });
  })();
  return prepared;
}
