import type { BacktestReport, ExpedScore, StrategyBacktest } from "../../src/report/backtest-report.js";
import { seriesStats, withBenchmarkDeltas } from "../../sim/backtest/summary.js";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import type { StoredCell } from "../../sim/sweep/results-store.js";

/** A sweep's backtest cell of ridge with `params`, on scenario `scenario` (its file /NAME.json), and the axis values it varies. */
export function ridgeCell(index: number, varied: Record<string, unknown>, params: Record<string, unknown>, scenario = "s", seed?: number): PlannedCell {
  return { index, varied, cell: { kind: "backtest", strategy: "ridge", params, against: [], scenario: `/${scenario}.json`, scenario_name: scenario, ...(seed === undefined ? {} : { seed }) } };
}

/** A sweep cell's stored outcome: its backtest `report`, done. */
export function doneCell(index: number, report: BacktestReport): StoredCell {
  return { index, status: "done", outcome: { ok: true, result: { kind: "backtest", report } } };
}

/** Twelve validation expeds, exped_0101 … exped_0112. */
export const EXPEDS = Array.from({ length: 12 }, (_, i) => `exped_${String(101 + i).padStart(4, "0")}`);

/** The statistics the report's summary holds, by the backtest's own function, so the fixture's numbers agree with its expeds. */
const stats = seriesStats;

const FEATURES = Array.from({ length: 12 }, (_, j) => `feature_${["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "heath", "iris", "jade", "kelp", "loam"][j]}`);

/** A strategy's walk from its per-exped CORR (null: not entered); AIMC and NCORR follow from it, the score is clip(0.5·corr + aimc, 0.05). */
export function backtestOf(corrs: (number | null)[], refusals: StrategyBacktest["refusals"] = [], benchmark_corr: number | null = 0.5): StrategyBacktest {
  const expeds: ExpedScore[] = corrs.map((corr, i) =>
    corr === null
      ? { exped: EXPEDS[i], n: 0, corr: null, aimc: null, ncorr: null, score: 0, fn_corr: null, tb_corr: null, designated_corr: null, max_exposure: null }
      : {
          exped: EXPEDS[i],
          n: 5000 - i,
          corr,
          aimc: corr / 2,
          ncorr: corr * 0.8,
          score: Math.max(-0.05, Math.min(0.05, corr)),
          fn_corr: corr * 0.6,
          tb_corr: corr * 1.5,
          designated_corr: 0.5,
          max_exposure: { feature: FEATURES[i % 3], value: 0.1 + i / 100 },
        },
  );
  const entered = expeds.filter((e) => e.n > 0);
  const score = stats(entered.map((e) => e.score));
  return {
    expeds,
    summary: {
      expeds: expeds.length,
      entered: entered.length,
      corr: stats(entered.map((e) => e.corr as number)),
      aimc: stats(entered.map((e) => e.aimc as number)),
      ncorr: stats(entered.map((e) => e.ncorr as number)),
      score: { ...score, total: expeds.reduce((a, e) => a + e.score, 0) },
      fn_corr: stats(entered.map((e) => e.fn_corr as number)),
      tb_corr: stats(entered.map((e) => e.tb_corr as number)),
      feature_exposure: {
        mean_max: 0.1234567,
        mean_max_feature: FEATURES[0],
        pooled_max: 0.0987654,
        pooled_max_feature: FEATURES[1],
        top: FEATURES.slice(0, 10).map((feature, j) => ({ feature, mean: 0.12 - j / 100, pooled: 0.1 - j / 120 })),
      },
      designated_corr: 0.5,
      benchmark_corr,
    },
    refusals,
  };
}

/** ridge-v2 under test (rising, one exped not entered), against v1_designated and a losing momentum strategy. */
export function report(strategy = "ridge-v2"): BacktestReport {
  const v1 = backtestOf([0.011, 0.02, -0.02, 0.03, 0.01, 0.015, 0.004, 0.018, -0.006, 0.022, 0.008, 0.012], [], 1);
  const vs = (b: StrategyBacktest): StrategyBacktest => ({ ...b, summary: withBenchmarkDeltas(b.summary, v1.summary) });
  return {
    strategy,
    ...vs(backtestOf([0.021, 0.034, -0.012, 0.045, 0.018, 0.027, null, 0.031, 0.009, 0.04, 0.012, 0.025], [{ exped: "exped_0107", reason: "Submission window is closed" }])),
    against: {
      v1_designated: vs(v1),
      momentum: vs(backtestOf([-0.01, 0.005, -0.02, -0.004, 0.012, -0.015, -0.008, 0.003, -0.011, -0.002, -0.006, 0.001], [], -0.2)),
    },
    context: {
      scenario: "default-tournament",
      train_rows: 24000,
      validation_rows: 12000,
      weights: { corr: 0.5, aimc: 1, ncorr: 0 },
      clip: 0.05,
      top_bottom: 0.2,
      rolling_window: 4,
    },
  };
}
