import { buildPhase } from "../src/domain/cadence.js";
import type { Rng } from "../src/domain/rng.js";
import type { World } from "../src/service/kernel/deployment.js";
import type { Scenario } from "./scenario.js";
import type { RoundSlot } from "./agents/strategy.js";
import type { Lineup } from "./agents/lineup.js";

/** One step of a replay: move the clock to `t`, bring the rounds up to it, then do the step's work. */
export type Step =
  | { t: number; kind: "tick" }
  | { t: number; kind: "action"; action: number }
  | { t: number; kind: "act"; agent: number; slot: RoundSlot };

const order = { tick: 0, action: 1, act: 2 } as const;

export function agentRng(root: Rng, agent: string, roundIndex: number, purpose: string): Rng {
  return root.fork(`agent:${agent}`).fork(`round:${roundIndex}`).fork(purpose);
}

/**
 * The whole replay as a list of steps in time order: a tick at every open, close and resolution,
 * each scenario action, and each agent's act in each round. A pure function of the scenario and
 * world, so a resumed run finds the same list and continues at the step it stopped after.
 */
export function buildTimeline(scenario: Scenario, world: World, root: Rng, lineup: Lineup): Step[] {
  const steps: Step[] = [];
  for (const r of world.schedule.rounds) {
    for (const t of [r.open_at, r.close_at, r.resolves_at]) steps.push({ t, kind: "tick" });
  }
  // An event also ticks at every phase (round results unseal as the next round opens; done closes it).
  if (world.schedule.kind === "event") for (const ph of world.schedule.phases) steps.push({ t: ph.start, kind: "tick" });
  for (const slot of slotsOf(world)) {
    scenario.agents.forEach((a, agent) => {
      const t = lineup.strategies[agent].actAt(slot, lineup.params[agent], agentRng(root, a.name, slot.index, "timing"));
      steps.push({ t, kind: "act", agent, slot });
    });
  }
  scenario.actions.forEach((a, action) => steps.push({ t: Date.parse(a.at), kind: "action", action }));
  const ordered = sortSteps(steps);
  return ordered.filter((s, i) => !(s.kind === "tick" && i > 0 && ordered[i - 1].kind === "tick" && ordered[i - 1].t === s.t));
}

/** Where agents act: each tournament round; an event's build phase (slot 0) and its rounds. */
export function slotsOf(world: World): RoundSlot[] {
  const rounds = world.schedule.rounds.map((r, i) => ({ exped: r.window, index: i + 1, open_at: r.open_at, close_at: r.close_at }));
  if (world.schedule.kind !== "event") return rounds;
  const build = buildPhase(world.schedule);
  return [{ exped: build.name, index: 0, open_at: build.start, close_at: build.end ?? build.start }, ...rounds];
}

function sortSteps(steps: Step[]): Step[] {
  const rank = (s: Step) => (s.kind === "act" ? s.agent : s.kind === "action" ? s.action : 0);
  const slotOf = (s: Step) => (s.kind === "act" ? s.slot.index : 0);
  return steps.sort((a, b) => a.t - b.t || order[a.kind] - order[b.kind] || slotOf(a) - slotOf(b) || rank(a) - rank(b));
}
