import { SimClock } from "../../src/domain/clock.js";
import { buildWorld, type World } from "../../src/service/kernel/deployment.js";
import { openBasecamp } from "../../src/app.js";
import { deploymentOf } from "../../sim/deployment.js";
import type { Scenario } from "../../sim/scenario.js";
import { smallScenario } from "./small-scenario.js";

/** A service over an in-memory store at the start of a small scenario's season (or `before` ms earlier); `world` when it is read (loadWorld). */
export function harness(scenario: Scenario = smallScenario(), before = 0, world: World = buildWorld(deploymentOf(scenario))) {
  const clock = new SimClock(world.schedule.phases[0].start - before);
  const { ctx, service } = openBasecamp(world, { clock: () => clock });
  const round = (i: number) => world.schedule.rounds[i - 1];
  return { scenario, world, clock, ctx, service, round };
}
