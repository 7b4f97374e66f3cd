import { basename } from "node:path";
import type { Frame } from "../../src/data/frame.js";
import type { BacktestReport, ExpedScore, StrategyBacktest } from "../../src/report/backtest-report.js";
import { loadWorld, type World } from "../../src/service/deployment.js";
import { loadLineup } from "../agents/lineup.js";
import { pythonUses, requirePython } from "../requirements.js";
import { strategyFileKind } from "../agents/strategy-file.js";
import { deploymentOf } from "../deployment.js";
import type { Scenario } from "../scenario.js";
import { contenders, DESIGNATED_CONTENDER, walkScenario } from "./contenders.js";
import { summarise, type PredictedRows } from "./summary.js";
import { walk, type WalkEntry } from "./walk.js";
import { walkWorld } from "./walk-world.js";

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
  /** The scenario's world, when already built. */
  world?: World;
  /** Rounds settled so far, of all: for a progress line. */
  onProgress?: (settled: number, rounds: number) => void;
}

/** One contender's accepted predictions per exped, in exped order: what `--save-predictions` writes. */
export type WalkPredictions = { exped: string; ids: string[]; values: Float64Array }[];

export interface BacktestRun {
  report: BacktestReport;
  /** The strategy under test's predictions. */
  predictions: WalkPredictions;
  /** The walked world: its rounds hold each exped's truth. */
  world: World;
}

/**
 * `basecamp backtest`: fits on the scenario's train split and walks forward over every validation
 * exped, each one a round of a replay in which the strategy, v1_designated and the `--against`
 * strategies play side by side (see walkWorld and walk). Per exped and in summary, the report
 * gives the settled CORR, AIMC, NCORR and round score of each.
 */
export async function backtest(opts: BacktestOptions): Promise<BacktestRun> {
  const agents = contenders(opts.strategy, opts.params ?? {}, opts.against ?? []);
  await requirePython("this backtest", pythonUses({ ...opts.scenario, event: undefined, agents }));
  const base = opts.world ?? await loadWorld(deploymentOf(opts.scenario));
  const walked = walkWorld(base);
  const scenario = walkScenario(opts.scenario, walked.calendar, agents);
  const world: World = { deployment: deploymentOf(scenario), dataset: walked.dataset, schedule: walked.schedule };
  const lineup = await loadLineup(scenario);
  let result;
  try {
    result = await walk(scenario, world, lineup, opts.onProgress);
  } finally {
    await lineup.close();
  }
  const expeds = world.dataset.rounds.map((r) => r.exped);
  // Each exped's truth and its rows by id, made once and read for every contender.
  const truth = new Map(world.dataset.rounds.map((r) => [r.exped, { ...r, row: new Map(r.frame.ids.map((id, i) => [id, i] as const)) }] as const));
  const designatedCorr = new Map([...(result.entries.get(DESIGNATED_CONTENDER) ?? new Map<string, WalkEntry>())].map(([exped, e]) => [exped, e.row.corr] as const));

  const contender = (name: string): StrategyBacktest => {
    const entries = result.entries.get(name) ?? new Map<string, WalkEntry>();
    const scores = expeds.map((exped): ExpedScore => {
      const e = entries.get(exped);
      if (!e) return { exped, n: 0, corr: null, aimc: null, ncorr: null, score: 0 };
      return { exped, n: scoredRows(e, truth.get(exped)!), corr: e.row.corr, aimc: e.row.aimc, ncorr: e.row.ncorr, score: e.row.total };
    });
    const missed = result.missed.get(name) ?? new Map<string, string>();
    return {
      expeds: scores,
      summary: summarise(scores, predictedRows(expeds, entries, truth, world.dataset.features), designatedCorr),
      refusals: expeds.filter((exped) => missed.has(exped)).map((exped) => ({ exped, reason: missed.get(exped) as string })),
    };
  };

  const [own, ...others] = agents.map((a) => a.name);
  const mine = contender(own);
  const entries = result.entries.get(own) ?? new Map<string, WalkEntry>();
  return {
    report: {
      strategy: strategyFileKind(opts.strategy) === null ? opts.strategy : basename(opts.strategy),
      ...mine,
      against: Object.fromEntries(others.map((name) => [name, contender(name)])),
      context: {
        scenario: opts.scenarioName,
        train_rows: base.dataset.train.ids.length,
        validation_rows: base.dataset.validation.ids.length,
        weights: opts.scenario.scoring.weights,
        clip: opts.scenario.scoring.clip,
      },
    },
    predictions: expeds.flatMap((exped) => {
      const e = entries.get(exped);
      return e ? [{ exped, ids: e.ids, values: e.values }] : [];
    }),
    world,
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

/** Every row a contender predicted over the walk, with each published feature's value on it. */
function predictedRows(expeds: string[], entries: Map<string, WalkEntry>, truth: Map<string, WalkedRound>, features: string[]): PredictedRows {
  const predictions: number[] = [];
  const columns: number[][] = features.map(() => []);
  for (const exped of expeds) {
    const e = entries.get(exped);
    if (!e) continue;
    const { frame, row } = truth.get(exped)!;
    e.ids.forEach((id, i) => {
      const r = row.get(id) as number;
      predictions.push(e.values[i]);
      features.forEach((f, j) => columns[j].push(frame.columns[f][r]));
    });
  }
  return { predictions: Float64Array.from(predictions), features: columns.map((c) => Float64Array.from(c)) };
}
