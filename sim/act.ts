import { iso } from "../src/domain/clock.js";
import type { Rng } from "../src/domain/rng.js";
import type { Client } from "../src/service/client.js";
import type { World } from "../src/service/deployment.js";
import { strategyByName } from "./agents/registry.js";
import type { Scenario } from "./scenario.js";
import { agentRng, type Step } from "./timeline.js";

/**
 * One agent's act in one round, through its client (in-process or HTTP). A refusal is the agent's
 * lot, not a failure of the replay: it goes to the log. Anything else is a bug and propagates.
 */
export async function act(
  step: Extract<Step, { kind: "act" }>,
  scenario: Scenario,
  world: World,
  root: Rng,
  client: Client,
  log: (line: string) => void,
): Promise<void> {
  const agent = scenario.agents[step.agent];
  const strategy = strategyByName(agent.strategy);
  const note = (line: string) => log(`${iso(step.t)} ${agent.name} ${step.slot.exped}: ${line}`);
  try {
    await strategy.act(
      {
        client,
        rng: agentRng(root, agent.name, step.slot.index, "act"),
        model: agent.name,
        log: note,
        peekTarget: strategy.oracle ? () => hiddenTarget(world, step.slot.index) : undefined,
      },
      step.slot,
      strategy.params.parse(agent.params),
    );
  } catch (e) {
    if (!isRefusal(e)) throw e;
    note(`refused ${e.status} ${e.code}: ${e.message}`);
  }
}

function hiddenTarget(world: World, roundIndex: number): Map<string, number> {
  const live = world.dataset.rounds[roundIndex - 1];
  return new Map(live.frame.ids.map((id, i) => [id, live.target[i]]));
}

/** A refusal from the service, in-process or over HTTP: it has a status, a code and a message. */
function isRefusal(e: unknown): e is { status: number; code: string; message: string } {
  return typeof e === "object" && e !== null && "status" in e && "code" in e && "message" in e;
}
