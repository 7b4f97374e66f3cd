import { basename } from "node:path";
import type { Frame } from "../../src/domain/frame.js";
import { type BacktestReport, DEFAULT_ROLLING_WINDOW, DEFAULT_TOP_BOTTOM, type ExpedScore, type StrategyBacktest } from "../../src/report/backtest-report.js";
import { trailingWindows } from "../../src/scoring/trailing-windows.js";
import { topBottomCount } from "../../src/scoring/top-bottom-count.js";
import { loadWorld, type World } from "../../src/service/kernel/deployment.js";
import { loadLineup, type LineupOptions } from "../agents/lineup.js";
import type { WalkAhead } from "../agents/python-strategy.js";
import { pythonUses, requirePython } from "../requirements.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import { deploymentOf } from "../deployment.js";
import type { Scenario } from "../scenario.js";
import { contenders, DESIGNATED_CONTENDER, walkScenario } from "./contenders.js";
import { contenderDiagnostics } from "./contender-diagnostics.js";
import { summarise, withBenchmarkDeltas } from "./summary.js";
import { walk, type WalkEntry, type WalkProgress, type WalkResult } from "./walk.js";
import { walkAhead, walkWorld } from "./walk-world.js";

export interface BacktestOptions {
  /** A file strategy's path (absolute, or relative to the working directory) or a built-in's name. */
  strategy: string;
  /** The strategy's parameters (a Python file's PARAMS overrides, a module's or built-in's params). */
  params?: Record<string, unknown>;
  /** Strategies to show side by side, besides v1_designated (names or paths). */
  against?: string[];
  scenario: Scenario;
  /** How the scenario is named in the report. */
  scenarioName: string;
  /** The scenario's world, when already built or being built (its strategies then load while it is read). */
  world?: World | Promise<World>;
  /** Rows at each end of the top/bottom CORR: a whole number, or a fraction (≤ 0.5) of each exped's rows (default DEFAULT_TOP_BOTTOM). */
  topBottom?: number;
  /** Expeds in the HTML page's rolling mean and rolling Sharpe (default DEFAULT_ROLLING_WINDOW). */
  rollingWindow?: number;
  /** How far the walk is, after each step: for a progress line. */
  onProgress?: (p: WalkProgress) => void;
  /** Called once the Python the contenders need (if any) is found, before any strategy loads. */
  onReady?: () => void;
  /** Called once the world is read, before the walk (the strategies may still be loading). */
  onWorld?: (world: World) => void | Promise<void>;
  /** Wall-clock seconds each Python contender's fit and each predict may take (the lineup's defaults otherwise). */
  timeouts?: { fit_timeout_seconds?: number; predict_timeout_seconds?: number };
  /** Where the Python contenders' logs go, who watches their fits and failures, and how much of the machine their workers take. */
  lineup?: Pick<LineupOptions, "logDir" | "watch" | "share" | "forks" | "trainFile" | "started">;
  /** The train split's rows, when it is left unread here (its Python strategies read its file themselves: lineup.trainFile). */
  trainRows?: number;
  /**
   * Ends the walk early: the Python workers are stopped at once (a call in flight fails) and the
   * walk stops after the step in progress; the report then covers the expeds settled so far.
   */
  stop?: AbortSignal;
}

/** One contender's accepted predictions per exped, in exped order: what `--save-predictions` writes. */
export type WalkPredictions = { exped: string; ids: string[]; values: Float64Array }[];

export interface BacktestRun {
  report: BacktestReport;
  /** The strategy under test's predictions. */
  predictions: WalkPredictions;
  /** The walked world: its rounds hold each exped's truth. */
  world: World;
  /** Whether every exped was walked (else `stop` ended the walk, and the report covers the expeds settled before). */
  finished: boolean;
}

/**
 * `basecamp backtest`: fits on the scenario's train split and walks forward over every validation
 * exped, each one a round of a replay in which the strategy, v1_designated and the `--against`
 * strategies play side by side (see walkWorld and walk). Per exped and in summary, the report
 * gives the settled CORR, AIMC, NCORR and round score of each.
 */
export async function backtest(opts: BacktestOptions): Promise<BacktestRun> {
  const topBottom = opts.topBottom ?? DEFAULT_TOP_BOTTOM;
  const rollingWindow = opts.rollingWindow ?? DEFAULT_ROLLING_WINDOW;
  // Both settings are checked before the walk, not after it: each check throws naming the bad value.
  topBottomCount(topBottom, 1);
  trailingWindows([], rollingWindow);
  const agents = contenders(opts.strategy, opts.params ?? {}, opts.against ?? [], opts.timeouts);
  await requirePython("this backtest", pythonUses({ ...opts.scenario, event: undefined, agents }));
  opts.onReady?.();
  // The strategies load (Python workers start, import, load their files) while the dataset is
  // read: neither waits on the other. The lineup reads only the scenario's kind and agents.
  // Each Python strategy asks its next rounds' predicts while this one settles (WalkAhead): the
  // walk's rounds are known once its world is made, which is before its first round.
  let ahead: WalkAhead = () => null;
  const loading = loadLineup({ ...opts.scenario, kind: "tournament", agents }, { ...opts.lineup, ahead: (slot, step) => ahead(slot, step) });
  // Its failure is met below, after the world's; or, when it is what stopped the backtest (a
  // strategy that failed to load) before the world was read, as the reason the walk never began.
  let unloaded: unknown = null;
  loading.catch((e: unknown) => (unloaded = e));
  const { stop } = opts;
  let base: World, scenario: Scenario, world: World;
  try {
    base = await (opts.world ?? loadWorld(deploymentOf(opts.scenario)));
    await opts.onWorld?.(base);
    const walked = walkWorld(base);
    scenario = walkScenario(opts.scenario, walked.calendar, agents);
    world = { deployment: deploymentOf(scenario), dataset: walked.dataset, schedule: walked.schedule };
    ahead = walkAhead(walked.dataset.rounds);
    if (stop?.aborted) throw unloaded ?? new Error("the backtest was stopped before its walk");
  } catch (e) {
    void loading.then((l) => l.close(), () => {});
    throw e;
  }
  const lineup = await loading;
  const closeNow = () => void lineup.close();
  stop?.addEventListener("abort", closeNow, { once: true });
  let result;
  try {
    result = await walk(scenario, world, lineup, { onProgress: opts.onProgress, shouldStop: stop && (() => stop.aborted) });
  } catch (e) {
    await lineup.close();
    throw e;
  } finally {
    stop?.removeEventListener("abort", closeNow);
  }
  // The strategies' workers end (their processes exit, their sandboxes are released) while the report is made.
  const closing = lineup.close();
  try {
    return reportOf({ opts, agents, base, world, result, topBottom, rollingWindow });
  } finally {
    await closing;
  }
}

/** The backtest's report of its walk: each contender's per-exped scores, diagnostics and summary, the strategy's predictions. */
function reportOf(walked: {
  opts: BacktestOptions;
  agents: { name: string }[];
  base: World;
  world: World;
  result: WalkResult;
  topBottom: number;
  rollingWindow: number;
}): BacktestRun {
  const { opts, agents, base, world, result, topBottom, rollingWindow } = walked;
  const settled = new Set(result.settled);
  const expeds = world.dataset.rounds.map((r) => r.exped).filter((exped) => result.finished || settled.has(exped));
  // Each exped's truth and its rows by id, made once and read for every contender.
  const truth = new Map(world.dataset.rounds.map((r) => [r.exped, { ...r, row: new Map(r.frame.ids.map((id, i) => [id, i] as const)) }] as const));
  const designatedCorr = new Map([...(result.entries.get(DESIGNATED_CONTENDER) ?? new Map<string, WalkEntry>())].map(([exped, e]) => [exped, e.row.corr] as const));

  const features = world.dataset.features;
  const contender = (name: string): StrategyBacktest => {
    const entries = result.entries.get(name) ?? new Map<string, WalkEntry>();
    const { byExped, exposures } = contenderDiagnostics(world.dataset.rounds, expeds, entries, truth, features, topBottom);
    const scores = expeds.map((exped): ExpedScore => {
      const e = entries.get(exped);
      if (!e) return { exped, n: 0, corr: null, aimc: null, ncorr: null, score: 0, fn_corr: null, tb_corr: null, designated_corr: null, max_exposure: null };
      return { exped, n: scoredRows(e, truth.get(exped)!), corr: e.row.corr, aimc: e.row.aimc, ncorr: e.row.ncorr, score: e.row.total, ...byExped.get(exped)! };
    });
    const missed = result.missed.get(name) ?? new Map<string, string>();
    return {
      expeds: scores,
      summary: summarise(scores, exposures, features, designatedCorr),
      refusals: expeds.filter((exped) => missed.has(exped)).map((exped) => ({ exped, reason: missed.get(exped) as string })),
    };
  };

  const [own, ...others] = agents.map((a) => a.name);
  const played = Object.fromEntries(agents.map((a) => [a.name, contender(a.name)]));
  const benchmark = played[DESIGNATED_CONTENDER].summary;
  for (const name of Object.keys(played)) played[name].summary = withBenchmarkDeltas(played[name].summary, benchmark);
  const mine = played[own];
  const entries = result.entries.get(own) ?? new Map<string, WalkEntry>();
  return {
    report: {
      strategy: strategyFileKind(opts.strategy) === null ? opts.strategy : basename(opts.strategy),
      ...mine,
      against: Object.fromEntries(others.map((name) => [name, played[name]])),
      context: {
        scenario: opts.scenarioName,
        train_rows: opts.trainRows ?? base.dataset.train.ids.length,
        validation_rows: base.dataset.validation.ids.length,
        weights: opts.scenario.scoring.weights,
        clip: opts.scenario.scoring.clip,
        top_bottom: topBottom,
        rolling_window: rollingWindow,
      },
    },
    predictions: expeds.flatMap((exped) => {
      const e = entries.get(exped);
      return e ? [{ exped, ids: e.ids, values: e.values }] : [];
    }),
    world,
    finished: result.finished,
  };
}

/** A walked exped's truth, with its rows by id. */
type WalkedRound = { frame: Frame; target: Float64Array; row: Map<string, number> };

/** Rows CORR was computed on: a finite prediction and a finite target. */
function scoredRows(e: WalkEntry, round: WalkedRound): number {
  let n = 0;
  e.ids.forEach((id, i) => {
    if (Number.isFinite(e.values[i]) && Number.isFinite(round.target[round.row.get(id) as number])) n++;
  });
  return n;
}
