import { pathToFileURL } from "node:url";
import { prepareStrategyImports } from "./strategy-api-hook.js";
import type { Strategy } from "./strategy.js";

/**
 * A TypeScript or JavaScript strategy: a module whose default export implements `Strategy` (the
 * interface the built-ins implement, exported by `sim/strategy-api.ts`). Checked for the members
 * the engine calls, each missing one named, so a wrong export fails at load and not mid-replay.
 * The module may import the Strategy API as "basecamp-sim/strategy" from wherever it lies. Each
 * load is an instance of the module of its own (its URL made unique by a query), so its top-level
 * variables start afresh for each agent, replay and sweep cell in a process, as they would in a
 * process of their own; the modules it imports in turn, and globals it sets, are the process's.
 */
let loads = 0;

export async function loadModuleStrategy(path: string): Promise<Strategy<any>> {
  let mod: { default?: unknown };
  await prepareStrategyImports();
  try {
    mod = (await import(`${pathToFileURL(path).href}?load=${++loads}`)) as { default?: unknown };
  } catch (e) {
    throw new Error(`cannot load ${path}: ${(e as Error).message.split("\n")[0]}`);
  }
  const s = mod.default as Partial<Strategy<any>> | undefined;
  if (typeof s !== "object" || s === null) throw new Error(`${path} has no default export implementing Strategy`);
  const missing = [
    typeof s.name === "string" && s.name !== "" ? null : "name (a string)",
    s.kind === "tournament" || s.kind === "event" ? null : 'kind ("tournament" or "event")',
    typeof s.params?.safeParse === "function" ? null : "params (a zod schema)",
    typeof s.actAt === "function" ? null : "actAt(slot, params, rng)",
    typeof s.act === "function" ? null : "act(ctx, slot, params)",
  ].filter((m): m is string => m !== null);
  if (missing.length > 0) throw new Error(`${path}'s default export lacks ${missing.join(", ")}`);
  return { summary: "", ...s } as Strategy<any>;
}
