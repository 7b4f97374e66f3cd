import { iso } from "../src/domain/clock.js";
import type { Rng } from "../src/domain/rng.js";
import type { Client } from "../src/service/client.js";
import type { World } from "../src/service/kernel/deployment.js";
import type { Lineup } from "./agents/lineup.js";
import { StrategyFailure } from "./agents/strategy.js";
import type { Scenario } from "./scenario.js";
import { agentRng, type Step } from "./timeline.js";

/**
 * One agent's act in one round, through its client (in-process or HTTP). A refusal, or its own
 * strategy code failing, is the agent's lot, not a failure of the replay: it goes to the log and
 * is returned as the reason the agent missed the round. Anything else is a bug and propagates.
 */
export async function act(
  step: Extract<Step, { kind: "act" }>,
  scenario: Scenario,
  world: World,
  root: Rng,
  client: Client,
  lineup: Lineup,
  log: (line: string) => void,
): Promise<string | null> {
  const agent = scenario.agents[step.agent];
  const strategy = lineup.strategies[step.agent];
  const note = (line: string) => log(`${iso(step.t)} ${agent.name} ${step.slot.exped}: ${line}`);
  // The act's stream is made when the strategy first reads it (most never do; a fork hashes its seed).
  let rng: Rng | undefined;
  try {
    await strategy.act(
      {
        client,
        get rng() {
          return (rng ??= agentRng(root, agent.name, step.slot.index, "act"));
        },
        model: agent.name,
        log: note,
        peekTarget: strategy.oracle ? () => hiddenTarget(world, step.slot.index) : undefined,
      },
      step.slot,
      lineup.params[step.agent],
    );
    return null;
  } catch (e) {
    const reason = e instanceof StrategyFailure ? `failed: ${e.message}` : isRefusal(e) ? `refused ${e.status} ${e.code}: ${e.message}` : null;
    if (reason === null) throw e;
    note(reason);
    return reason;
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
