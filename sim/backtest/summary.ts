import { seriesDiagnostics } from "../../src/scoring/diagnostics.js";
import { absPearson, exposureMoments } from "../../src/scoring/exposure.js";
import type { BacktestSummary, ExpedScore, SeriesStats } from "../../src/report/backtest-report.js";

/** mean, std, Sharpe and max drawdown (the display-only diagnostics of SCORING.md), and the share of values > 0. */
export function seriesStats(values: number[]): SeriesStats {
  const { mean, std, sharpe, max_drawdown } = seriesDiagnostics(values);
  const hits = values.filter((v) => v > 0).length;
  return { mean, std, sharpe, max_drawdown, hit_rate: values.length === 0 ? 0 : hits / values.length };
}

/** The rows one contender predicted over the whole walk, with the published feature values of each row. */
export interface PredictedRows {
  predictions: Float64Array;
  features: Float64Array[];
}

/**
 * The summary of one contender's walk. Term statistics run over the expeds it entered; `score.total`
 * sums every walked exped (a round not entered counts 0, as in the standings).
 */
export function summarise(expeds: ExpedScore[], rows: PredictedRows, benchmarkCorr: Map<string, number>): BacktestSummary {
  const entered = expeds.filter((e) => e.corr !== null);
  const term = (pick: (e: ExpedScore) => number | null) => seriesStats(entered.map((e) => pick(e) as number));
  const both = entered.filter((e) => benchmarkCorr.has(e.exped));
  return {
    expeds: expeds.length,
    entered: entered.length,
    corr: term((e) => e.corr),
    aimc: term((e) => e.aimc),
    ncorr: term((e) => e.ncorr),
    score: { ...term((e) => e.score), total: expeds.reduce((sum, e) => sum + e.score, 0) },
    feature_exposure: featureExposure(rows),
    benchmark_corr:
      both.length < 2
        ? null
        : seriesDiagnostics(
            both.map((e) => e.corr as number),
            both.map((e) => benchmarkCorr.get(e.exped) as number),
          ).benchmark_corr,
  };
}

/**
 * max over features of |pearson(prediction, feature)|, each over the rows where the prediction is
 * finite and the feature is present (finite and not the missing sentinel), as `score` computes
 * it; null without rows or features.
 */
export function featureExposure({ predictions, features }: PredictedRows): number | null {
  if (predictions.length === 0 || features.length === 0) return null;
  return Math.max(...features.map((column) => absPearson(exposureMoments(predictions, column))));
}
