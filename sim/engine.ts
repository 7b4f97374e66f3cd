import { iso, SimClock } from "../src/domain/clock.js";
import { Rng } from "../src/domain/rng.js";
import { openBasecamp } from "../src/app.js";
import type { Board } from "../src/scoring/standings.js";
import { currentStandings, settledRoundBoard, standingRoundCount, standingRoundsAfter } from "../src/service/overview/boards.js";
import { computeBudgets, type ComputeBudgets } from "../src/service/compute/budgets.js";
import { loadWorld, cadenceNow, type World } from "../src/service/kernel/deployment.js";
import { practiceBoard } from "../src/service/event/event-boards.js";
import { stakeBalances, type StakeBalances } from "../src/service/overview/stake-balances.js";
import { modelLegend } from "../src/service/models/models.js";
import type { Client } from "../src/service/client.js";
import { inProcessClient } from "../src/service/in-process-client.js";
import { act } from "./act.js";
import { loadLineup, type Lineup } from "./agents/lineup.js";
import { applyAction, serviceControls } from "./organiser-action.js";
import type { Scenario } from "./scenario.js";
import { deploymentOf } from "./deployment.js";
import { requireScenarioPython } from "./requirements.js";
import { buildTimeline, type Step } from "./timeline.js";

/** What a replay reports as it goes, for the terminal UI. */
export type EngineEvent =
  | { kind: "progress"; step: number; steps: number; now: string; phase: string; settled: number; rounds: number }
  /**
   * A round settled: its own board (when known), and the standings after it, read on demand and
   * within the listener (a listener that wants only the round's board, like the backtest's, does
   * not pay for the season's at every round).
   */
  | { kind: "settled"; exped: string; board: () => Board; round?: Board }
  | { kind: "log"; line: string }
  /** An agent missed a round: it was refused, or its strategy's own code failed. */
  | { kind: "missed"; agent: string; exped: string; reason: string };

export interface RunOptions {
  /** SQLite file to persist to; in memory when absent. */
  db?: string;
  /** In memory, a store known to stay small (a backtest's walk): openSmallDb. */
  smallStore?: boolean;
  /** Continue a run that stopped part-way in `db`. */
  resume?: boolean;
  /** Stop once this many steps (counted from the start of the season) are done. */
  stopAfter?: number;
  onEvent?: (e: EngineEvent) => void;
  /** Awaited after each step: a face may pace the replay so a person can watch it (or hold it paused). */
  afterStep?: () => Promise<void>;
  /** Asked between steps (a quit key, SIGINT/SIGTERM): true ends the replay there, as `stopAfter` would (resumable with `resume`). */
  shouldStop?: () => boolean;
  /** A world already built for this scenario (the dataset is costly to regenerate). */
  world?: World;
  /** The agents' strategies, already loaded (and closed by the caller); loaded and closed by the replay when absent. */
  lineup?: Lineup;
  /** Where the lineup the replay loads keeps each Python strategy's log (`<agent>.log`); discarded without it. */
  logDir?: string;
  /** Lets a face watch what an agent asks of the service (the backtest reads what each agent submitted). */
  wrapClient?: (client: Client, agent: number) => Client;
}

export interface RunResult {
  digest: string;
  events: number;
  steps: number;
  stepsDone: number;
  finished: boolean;
  board: Board & { rounds_settled: number };
  /** Events: the practice board (display only); null for a tournament. */
  practice: Board | null;
  /** Every staking agent's money, ranked (events: the deposits; tournaments: what stakes earned); null when nobody stakes. */
  stakes: StakeBalances | null;
  /** An event with compute: each agent's grant, spend and remainder, and the spend by kind; null without a compute budget. */
  compute: ComputeBudgets | null;
  /** Which agent stands behind each model (events name models themselves). */
  legend: { model: string; agent: string; label: string | null }[];
}

/**
 * Replays a scenario: steps the clock through its timeline, lets each agent act through its own
 * client, and settles rounds as their targets resolve. A scenario that needs Python (pythonUses)
 * refuses to start without it, naming what is missing. Every step commits atomically with its
 * step number, so a run stopped after any step resumes to the same event log as an unbroken one.
 */
export async function runScenario(scenario: Scenario, opts: RunOptions = {}): Promise<RunResult> {
  await requireScenarioPython(scenario);
  const world = opts.world ?? await loadWorld(deploymentOf(scenario));
  const root = new Rng(scenario.seed);
  const lineup = opts.lineup ?? (await loadLineup(scenario, { logDir: opts.logDir }));
  try {
    return await replay(scenario, world, root, lineup, opts);
  } finally {
    if (!opts.lineup) await lineup.close();
  }
}

async function replay(scenario: Scenario, world: World, root: Rng, lineup: Lineup, opts: RunOptions): Promise<RunResult> {
  const timeline = buildTimeline(scenario, world, root, lineup);
  const clock = new SimClock(world.schedule.phases[0].start);
  const app = openBasecamp(world, {
    db: opts.db,
    small: opts.smallStore,
    clock: () => clock,
    check: ({ stepsDone: done }) => {
      if (done > 0 && !opts.resume) {
        throw new Error(`${opts.db} already holds a run (${done} steps done); pass --resume to continue it, or use a fresh --db`);
      }
    },
  });
  const { service, ctx } = app;
  const done = app.stepsDone();
  try {
    const clients = scenario.agents.map((a, i) => {
      const client = inProcessClient(service, a.key);
      return opts.wrapClient ? opts.wrapClient(client, i) : client;
    });
    const emit = opts.onEvent ?? (() => {});
    const stopAt = Math.min(timeline.length, opts.stopAfter ?? timeline.length);
    let settled = opts.onEvent ? standingRoundCount(ctx) : 0;
    for (let i = done; i < stopAt && !opts.shouldStop?.(); i++) {
      const step = timeline[i];
      if (step.t > clock.now()) clock.set(step.t);
      await app.inStep(i, async () => {
        await service.sync();
        await runStep(step);
      });
      // Standings change when a round settles (an event's, when its results unseal): read only for a listener.
      // Rounds only ever join the standings (a settled round stays settled, an unsealed one unsealed),
      // so the ones after those already counted are the new ones.
      if (opts.onEvent) {
        const fresh = standingRoundsAfter(ctx, settled);
        if (fresh.length > 0) {
          let board: Board | undefined;
          const standingsNow = () => (board ??= currentStandings(ctx));
          for (const exped of fresh) emit({ kind: "settled", exped, board: standingsNow, round: settledRoundBoard(ctx, exped) });
        }
        settled += fresh.length;
        emit({ kind: "progress", step: i + 1, steps: timeline.length, now: iso(clock.now()), phase: cadenceNow(ctx).phase, settled, rounds: world.schedule.rounds.length });
      }
      await opts.afterStep?.();
      // A step may never wait on I/O: yield to the event loop, so a key or a signal can reach shouldStop.
      if (opts.shouldStop) await new Promise((resolve) => setImmediate(resolve));
    }

    async function runStep(step: Step): Promise<void> {
      if (step.kind === "action") {
        const line = await applyAction(scenario.actions[step.action], serviceControls(service, scenario.organiser_key));
        emit({ kind: "log", line });
        return;
      }
      if (step.kind === "act") {
        const missed = await act(step, scenario, world, root, clients[step.agent], lineup, (line) => emit({ kind: "log", line }));
        if (missed !== null) emit({ kind: "missed", agent: scenario.agents[step.agent].name, exped: step.slot.exped, reason: missed });
      }
    }

    const finished = app.stepsDone() === timeline.length;
    return {
      digest: app.digest(),
      events: app.events(),
      steps: timeline.length,
      stepsDone: app.stepsDone(),
      finished,
      board: currentStandings(ctx),
      practice: world.deployment.kind === "event" ? practiceBoard(ctx) : null,
      stakes: stakeBalances(ctx),
      compute: computeBudgets(ctx),
      legend: modelLegend(ctx),
    };
  } finally {
    app.close();
  }
}
