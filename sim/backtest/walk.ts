import type { Client } from "../../src/service/client.js";
import type { World } from "../../src/service/kernel/deployment.js";
import type { StandingRow } from "../../src/scoring/standings.js";
import type { Lineup } from "../agents/lineup.js";
import { runScenario } from "../engine.js";
import type { Scenario } from "../scenario.js";

/** What one contender did in one round of the walk: what it submitted, and the round's settled row for it. */
export interface WalkEntry {
  /** The predictions the service accepted, as submitted. */
  ids: string[];
  values: Float64Array;
  row: StandingRow;
}

/** Per contender (by agent name): its accepted, settled rounds by exped, and why it missed the others. */
export interface WalkResult {
  entries: Map<string, Map<string, WalkEntry>>;
  missed: Map<string, Map<string, string>>;
  /** The expeds whose rounds settled, in walk order: every one unless the walk was stopped. */
  settled: string[];
  /** Whether the walk ran to its end (else `shouldStop` ended it). */
  finished: boolean;
  digest: string;
}

/** How far the walk is: the replay's steps done of all, and its rounds settled of all. */
export interface WalkProgress {
  step: number;
  steps: number;
  settled: number;
  rounds: number;
}

/**
 * Replays the walk (the validation expeds as rounds, see walkWorld) with the contenders as the
 * scenario's agents, through the same service, intake rules and settlement as any replay. What
 * each agent submitted is read off its own client as it goes; the terms and round scores are the
 * settled round boards' own numbers. `shouldStop`, asked between steps, ends the walk early.
 */
export async function walk(
  scenario: Scenario,
  world: World,
  lineup: Lineup,
  opts: { onProgress?: (p: WalkProgress) => void; shouldStop?: () => boolean } = {},
): Promise<WalkResult> {
  const settled: string[] = [];
  const submitted = new Map<string, Map<string, { ids: string[]; values: Float64Array }>>();
  const entries = new Map<string, Map<string, WalkEntry>>();
  const missed = new Map<string, Map<string, string>>();
  for (const a of scenario.agents) {
    submitted.set(a.name, new Map());
    entries.set(a.name, new Map());
    missed.set(a.name, new Map());
  }
  const capture = (client: Client, agent: number): Client => ({
    ...client,
    submit: async (input) => {
      const result = await client.submit(input);
      const values = Float64Array.from(input.predictions, (p) => p.prediction ?? Object.values(p.targets ?? {})[0]);
      submitted.get(scenario.agents[agent].name)?.set(input.exped, { ids: input.predictions.map((p) => p.instrument_id), values });
      return result;
    },
  });
  const result = await runScenario(scenario, {
    world,
    smallStore: true,
    lineup,
    wrapClient: capture,
    onEvent: (e) => {
      if (e.kind === "missed") missed.get(e.agent)?.set(e.exped, e.reason);
      else if (e.kind === "progress") opts.onProgress?.({ step: e.step, steps: e.steps, settled: e.settled, rounds: e.rounds });
      else if (e.kind === "settled" && e.round) {
        settled.push(e.exped);
        for (const row of e.round.rows) {
          const sent = submitted.get(row.model)?.get(e.exped);
          if (sent) entries.get(row.model)?.set(e.exped, { ...sent, row });
        }
      }
    },
    shouldStop: opts.shouldStop,
  });
  return { entries, missed, settled, finished: result.finished, digest: result.digest };
}
