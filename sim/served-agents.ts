import { Rng } from "../src/domain/rng.js";
import type { Appointments } from "../src/service/cadence/clock-walk.js";
import type { World } from "../src/service/kernel/deployment.js";
import { inProcessClient } from "../src/service/in-process-client.js";
import type { Service } from "../src/service/service.js";
import { act } from "./act.js";
import type { Lineup } from "./agents/lineup.js";
import { applyAction, serviceControls } from "./organiser-action.js";
import type { Scenario } from "./scenario.js";
import { buildTimeline } from "./timeline.js";

/**
 * A scenario's agents and organiser actions on a served clock (`serve --with-agents`): the replay's
 * own timeline, each step kept as the clock passes it (its ticks only halt the clock, as the replay
 * halts at every round transition). Each agent acts through its own in-process client on the
 * served service, so it meets the boards, fences and rate limits an outside client meets; what it
 * notes, and a round it misses, goes to `log` one line each, as in the replay's log.
 */
export function servedAgents(scenario: Scenario, world: World, lineup: Lineup, service: Service, log: (line: string) => void): Appointments {
  const root = new Rng(scenario.seed);
  const timeline = buildTimeline(scenario, world, root, lineup);
  const clients = scenario.agents.map((a) => inProcessClient(service, a.key));
  const organiser = serviceControls(service, scenario.organiser_key);
  let kept = 0;
  return {
    next: () => (kept < timeline.length ? timeline[kept].t : null),
    keepNext: async () => {
      // Counted kept before its work: a step whose work fails (a bug, reported) is not tried again.
      const step = timeline[kept++];
      if (step.kind === "action") log(await applyAction(scenario.actions[step.action], organiser));
      else if (step.kind === "act") await act(step, scenario, world, root, clients[step.agent], lineup, log);
    },
  };
}
