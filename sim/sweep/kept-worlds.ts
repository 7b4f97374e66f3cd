import { loadWorld, type World } from "../../src/service/kernel/deployment.js";
import { canonicalJson } from "../../src/store/canonical-json.js";
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
export async function worldOf(scenario: Scenario): Promise<World> {
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

