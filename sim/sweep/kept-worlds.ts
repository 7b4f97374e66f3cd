import { loadWorld, type World } from "../../src/service/kernel/deployment.js";
import { canonicalJson } from "../../src/store/canonical-json.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import { deploymentOf } from "../deployment.js";
import type { Scenario } from "../scenario.js";

/**
 * Worlds already built in this process, by everything they are built from, the most recently used
 * last: cells on the same data share one (the pools hand them out together: world-order.ts).
 */
const worlds = new Map<string, World>();
const WORLDS_KEPT = 4;

/**
 * The world of `scenario`'s deployment: its dataset and schedule kept from a cell on the same data
 * (whatever its scoring), or built and kept; its deployment always this scenario's own, since the
 * service starts from the deployment's scoring settings.
 */
async function worldOf(scenario: Scenario): Promise<World> {
  const deployment = deploymentOf(scenario);
  const key = canonicalJson({ ...deployment, scoring: null });
  let world = worlds.get(key);
  if (world) worlds.delete(key);
  else {
    world = await loadWorld(deployment);
    if (worlds.size >= WORLDS_KEPT) worlds.delete(worlds.keys().next().value as string);
  }
  worlds.set(key, world);
  return { ...world, deployment };
}

/**
 * The world a cell runs on, with these strategies: a kept one (worldOf), unless one of them is a
 * module (a .ts or .js file). A module runs in this very process, handed the world's frames (typed
 * arrays, which nothing can make read-only), and could write into them: its cell gets a world built
 * for it alone, so that no later cell on this worker sees what it wrote.
 */
export function cellWorld(scenario: Scenario, strategies: string[]): Promise<World> {
  return strategies.some((s) => strategyFileKind(s) === "module") ? loadWorld(deploymentOf(scenario)) : worldOf(scenario);
}
