import type { BacktestReport, ExpedScore, SeriesStats, StrategyBacktest } from "../../src/report/backtest-report.js";

/** Twelve validation expeds, exped_0101 … exped_0112. */
export const EXPEDS = Array.from({ length: 12 }, (_, i) => `exped_${String(101 + i).padStart(4, "0")}`);

/** The statistics the report's summary holds, computed here so the fixture's numbers agree with its expeds. */
function stats(values: number[]): SeriesStats {
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  const std = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
  let sum = 0;
  let peak = 0;
  let max_drawdown = 0;
  for (const v of values) {
    sum += v;
    peak = Math.max(peak, sum);
    max_drawdown = Math.max(max_drawdown, peak - sum);
  }
  return { mean, std, sharpe: std === 0 ? 0 : mean / std, max_drawdown, hit_rate: values.filter((v) => v > 0).length / values.length };
}

/** A strategy's walk from its per-exped CORR (null: not entered); AIMC and NCORR follow from it, the score is clip(0.5·corr + aimc, 0.05). */
export function backtestOf(corrs: (number | null)[], refusals: StrategyBacktest["refusals"] = [], benchmark_corr: number | null = 0.5): StrategyBacktest {
  const expeds: ExpedScore[] = corrs.map((corr, i) =>
    corr === null
      ? { exped: EXPEDS[i], n: 0, corr: null, aimc: null, ncorr: null, score: 0 }
      : { exped: EXPEDS[i], n: 5000 - i, corr, aimc: corr / 2, ncorr: corr * 0.8, score: Math.max(-0.05, Math.min(0.05, corr)) },
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
      feature_exposure: 0.1234567,
      benchmark_corr,
    },
    refusals,
  };
}

/** ridge-v2 under test (rising, one exped not entered), against v1_designated and a losing momentum strategy. */
export function report(strategy = "ridge-v2"): BacktestReport {
  return {
    strategy,
    ...backtestOf(
      [0.021, 0.034, -0.012, 0.045, 0.018, 0.027, null, 0.031, 0.009, 0.04, 0.012, 0.025],
      [{ exped: "exped_0107", reason: "Submission window is closed" }],
    ),
    against: {
      v1_designated: backtestOf([0.011, 0.02, -0.02, 0.03, 0.01, 0.015, 0.004, 0.018, -0.006, 0.022, 0.008, 0.012], [], 1),
      momentum: backtestOf([-0.01, 0.005, -0.02, -0.004, 0.012, -0.015, -0.008, 0.003, -0.011, -0.002, -0.006, 0.001], [], -0.2),
    },
    context: { scenario: "default-tournament", train_rows: 24000, validation_rows: 12000, weights: { corr: 0.5, aimc: 1, ncorr: 0 }, clip: 0.05 },
  };
}
