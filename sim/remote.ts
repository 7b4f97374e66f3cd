import { iso } from "../src/domain/clock.js";
import { Rng } from "../src/domain/rng.js";
import type { Board } from "../src/scoring/standings.js";
import { BasecampClient } from "../src/sdk/client.js";
import { SimControl } from "../src/sdk/sim-control.js";
import type { TransportOptions } from "../src/sdk/transport.js";
import { loadWorld, type World } from "../src/service/kernel/deployment.js";
import { act } from "./act.js";
import { loadLineup, type Lineup } from "./agents/lineup.js";
import { applyAction } from "./organiser-action.js";
import { deploymentOf } from "./deployment.js";
import type { EngineEvent } from "./engine.js";
import type { Scenario } from "./scenario.js";
import { buildTimeline } from "./timeline.js";

export interface ReplayAgainstOptions {
  /** Origin of a `basecamp serve --clock manual` server started fresh on the same scenario. */
  baseUrl: string;
  /** Defaults to the scenario's organiser key. */
  organiserKey?: string;
  /** A world already built for this scenario (the dataset is costly to regenerate). */
  world?: World;
  onEvent?: (e: EngineEvent) => void;
  /** Gate credentials, fetch, sleep and retries (default none) for every client the replay makes. */
  http?: Omit<TransportOptions, "baseUrl">;
  /** The agents' strategies, already loaded (and closed by the caller); loaded and closed by the replay when absent. */
  lineup?: Lineup;
}

/**
 * Replays a scenario against a running server instead of an in-process service: for each step of
 * the same timeline the engine walks, moves the server's clock to the step, then applies the
 * organiser's action over `/sim/v1` or lets the agent act through its own HTTP client. Returns the
 * server's standings at the end, which equal the in-process replay's when the faces agree.
 *
 * The replay's own reads (the schedule at the start, the standings after each settlement) go
 * through the first agent's key, so they count against that key's rate limit on those two
 * endpoints, which the built-in strategies never call. The final standings reuse the last read
 * when nothing happened after it, so a season ending on a settlement reads them once.
 */
export async function replayAgainst(scenario: Scenario, opts: ReplayAgainstOptions): Promise<Board & { rounds_settled: number }> {
  const lineup = opts.lineup ?? (await loadLineup(scenario));
  try {
    return await replay(scenario, lineup, opts);
  } finally {
    if (!opts.lineup) await lineup.close();
  }
}

async function replay(scenario: Scenario, lineup: Lineup, opts: ReplayAgainstOptions): Promise<Board & { rounds_settled: number }> {
  const world = opts.world ?? await loadWorld(deploymentOf(scenario));
  const root = new Rng(scenario.seed);
  const timeline = buildTimeline(scenario, world, root, lineup);
  // An agent's refusal is its lot, as in-process: no retry (a retry would also count against the rate limit).
  const http = { maxRetries: 0, ...opts.http, baseUrl: opts.baseUrl };
  const control = new SimControl({ ...http, organiserKey: opts.organiserKey ?? scenario.organiser_key });
  const clients = scenario.agents.map((a) => new BasecampClient({ ...http, apiKey: a.key }));
  const emit = opts.onEvent ?? (() => {});
  const log = (line: string) => emit({ kind: "log", line });

  await requireSameSchedule(clients[0], world, opts.baseUrl);
  const clock = await control.clock();
  if (clock.mode !== "manual") throw new Error(`${opts.baseUrl} runs a ${clock.mode} clock; replay needs --clock manual`);
  let now = Date.parse(clock.now);
  if (timeline.length > 0 && now > timeline[0].t) {
    throw new Error(`${opts.baseUrl} is already at ${clock.now}, past the season's first step: replay needs a fresh server`);
  }
  let phase = clock.cadence.phase;
  let settled = 0;
  let board: (Board & { rounds_settled: number }) | undefined;

  for (const [i, step] of timeline.entries()) {
    if (step.t > now) {
      const moved = await control.advance({ until: iso(step.t) });
      now = Date.parse(moved.now);
      phase = moved.cadence.phase;
      const settles = moved.transitions.filter((x) => x.kind === "settle");
      if (settles.length > 0) {
        const standings = await clients[0].standings();
        board = standings;
        settled = standings.rounds_settled;
        for (const tr of settles) emit({ kind: "settled", exped: tr.exped, board: () => standings });
      }
    }
    if (step.kind !== "tick") board = undefined;
    if (step.kind === "action") {
      log(await applyAction(scenario.actions[step.action], control));
    } else if (step.kind === "act") {
      const missed = await act(step, scenario, world, root, clients[step.agent], lineup, log);
      if (missed !== null) emit({ kind: "missed", agent: scenario.agents[step.agent].name, exped: step.slot.exped, reason: missed });
    }
    emit({ kind: "progress", step: i + 1, steps: timeline.length, now: iso(now), phase, settled, rounds: world.schedule.rounds.length });
  }
  return board ?? clients[0].standings();
}

/** Refuses a server that runs another scenario (its rounds would not be this timeline's). */
async function requireSameSchedule(client: BasecampClient, world: World, baseUrl: string): Promise<void> {
  const served = (await client.schedule()).rounds.map((r) => `${r.exped}@${r.open_at}`);
  const expected = world.schedule.rounds.map((r) => `${r.window}@${iso(r.open_at)}`);
  if (served.join() !== expected.join()) {
    throw new Error(`${baseUrl} serves another schedule than this scenario's: start it on the same scenario file`);
  }
}
