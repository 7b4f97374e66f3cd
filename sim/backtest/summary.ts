import { columnLike, type Frame, type NumericColumn } from "../../src/domain/frame.js";
import { DESIGNATED } from "../../src/data/schema.js";
import { calmar } from "../../src/scoring/calmar.js";
import { designatedCorr } from "../../src/scoring/designated-corr.js";
import { seriesDiagnostics } from "../../src/scoring/diagnostics.js";
import { maxDrawdownDuration } from "../../src/scoring/max-drawdown-duration.js";
import { featureExposures, type FeatureExposures } from "../../src/scoring/feature-exposures.js";
import { smartSharpe } from "../../src/scoring/smart-sharpe.js";
import { topBottomCorr } from "../../src/scoring/top-bottom-corr.js";
import { topBottomCount } from "../../src/scoring/top-bottom-count.js";
import { finiteRows } from "../../src/scoring/vector.js";
import type { BacktestSummary, ExpedScore, ExposureSummary, SeriesStats } from "../../src/report/backtest-report.js";
import { fnCorr } from "./fn-corr.js";
import type { WalkEntry } from "./walk.js";

/**
 * The most work FN CORR may take on one exped, in rows · features² (its least-squares fit's cost):
 * about 0.1 s. The default tournament's 200 · 24² is far below; a real dataset's 5,000 rows by
 * 2,000 features is far above, and FN CORR is left out (null) for such expeds rather than take
 * minutes per strategy.
 */
export const FN_CORR_MAX_WORK = 5e7;

/** How many features the exposure summary lists. */
const TOP_FEATURES = 10;

/** The display-only statistics of SCORING.md over a per-exped series (docs/scoring.md defines each); the deltas against the benchmark come later (`withBenchmarkDeltas`). */
export function seriesStats(values: number[]): SeriesStats {
  const { mean, std, sharpe, max_drawdown, autocorrelation } = seriesDiagnostics(values);
  const hits = values.filter((v) => v > 0).length;
  return {
    mean,
    std,
    sharpe,
    smart_sharpe: smartSharpe(values),
    max_drawdown,
    max_drawdown_expeds: maxDrawdownDuration(values),
    calmar: calmar(mean, max_drawdown),
    hit_rate: values.length === 0 ? 0 : hits / values.length,
    autocorrelation,
    vs_benchmark: null,
  };
}

/** The rows one contender predicted on one exped, with the exped's truth and every published feature on each row. */
export interface PredictedExped {
  exped: string;
  ids: string[];
  prediction: Float64Array;
  target: Float64Array;
  /** v1_designated on each row (NaN where the benchmark has none). */
  benchmark: Float64Array;
  /** One column per published feature, in the dataset's feature order and its file's own type. */
  features: NumericColumn[];
  /** The round's live frame, when these are its rows in its order (FnRows.round). */
  round?: Frame;
}

/** A walked exped's truth: its features, target and live benchmark, with its rows by id. */
export type WalkedRound = { frame: Frame; target: Float64Array; benchmark: Frame; row: Map<string, number> };

/**
 * The rows a contender predicted on each exped it entered, in exped order, with the truth,
 * v1_designated and each published feature on them. Where it predicted the exped's rows in the
 * live split's order (as every strategy does that answers by the live frame's index), the feature
 * columns are the exped's own, not copies.
 */
export function predictedExpeds(expeds: string[], entries: Map<string, WalkEntry>, truth: Map<string, WalkedRound>, features: string[]): PredictedExped[] {
  return expeds.flatMap((exped) => {
    const e = entries.get(exped);
    if (!e) return [];
    const { frame, target, benchmark, row } = truth.get(exped)!;
    const designated = new Map(benchmark.ids.map((id, i) => [id, benchmark.columns[DESIGNATED][i]] as const));
    const rows = Int32Array.from(e.ids, (id) => row.get(id) as number);
    const inOrder = rows.length === frame.ids.length && rows.every((r, i) => r === i);
    return [
      {
        exped,
        ids: e.ids,
        prediction: e.values,
        target: rowsOf(target, rows) as Float64Array,
        benchmark: Float64Array.from(e.ids, (id) => designated.get(id) ?? NaN),
        features: features.map((f) => (inOrder ? frame.columns[f] : rowsOf(frame.columns[f], rows))),
        ...(inOrder ? { round: frame } : {}),
      },
    ];
  });
}

/** `column`'s values at `rows`, in its own type. */
function rowsOf(column: NumericColumn, rows: Int32Array): NumericColumn {
  const out = columnLike(column, rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]];
  return out;
}

/** The per-exped figures of one contender's exped that the settlement does not give. */
export type ExpedDiagnostics = Pick<ExpedScore, "fn_corr" | "tb_corr" | "designated_corr">;

/**
 * Feature-neutral CORR (NCORR's kernel with every published feature as the core set; null above
 * FN_CORR_MAX_WORK, and null on an exped of no more rows than features + 1, as the real event's are
 * (92 rows, 178 features): the features and the intercept then span its rows, nothing of the
 * prediction is left to correlate, and the fit would cost seconds per backtest for a 0), top/bottom
 * CORR (`topBottomCorr`, `topBottom` rows or share of the scored rows at each end) and the
 * prediction-level corr with v1_designated.
 */
export function expedDiagnostics(rows: PredictedExped, topBottom: number): ExpedDiagnostics {
  const { ids, prediction, target } = rows;
  const work = ids.length * rows.features.length ** 2;
  const fn = work > FN_CORR_MAX_WORK || ids.length <= rows.features.length + 1 ? null : fnCorr(rows);
  const scored = finiteRows(prediction, target).length;
  const tb = topBottomCorr(prediction, target, ids, topBottomCount(topBottom, scored));
  return { fn_corr: fn, tb_corr: tb, designated_corr: designatedCorr(prediction, rows.benchmark) };
}

/** Each entered exped's feature exposures (in the order of `rows`) and the pooled ones; null without rows or features. */
export function exposuresOf(rows: PredictedExped[]): FeatureExposures | null {
  if (rows.length === 0 || rows[0].features.length === 0) return null;
  return featureExposures(rows.map((r) => ({ prediction: r.prediction, features: r.features })));
}

/**
 * The summary of one contender's walk. Term statistics run over the expeds it entered; `score.total`
 * sums every walked exped (a round not entered counts 0, as in the standings).
 */
export function summarise(expeds: ExpedScore[], exposures: FeatureExposures | null, features: string[], benchmarkCorr: Map<string, number>): BacktestSummary {
  const entered = expeds.filter((e) => e.corr !== null);
  const term = (pick: (e: ExpedScore) => number | null) => seriesStats(entered.map((e) => pick(e) as number));
  const both = entered.filter((e) => benchmarkCorr.has(e.exped));
  const fnCorr = entered.flatMap((e) => (e.fn_corr === null ? [] : [e.fn_corr]));
  return {
    expeds: expeds.length,
    entered: entered.length,
    corr: term((e) => e.corr),
    aimc: term((e) => e.aimc),
    ncorr: term((e) => e.ncorr),
    score: { ...term((e) => e.score), total: expeds.reduce((sum, e) => sum + e.score, 0) },
    fn_corr: fnCorr.length === 0 ? null : seriesStats(fnCorr),
    tb_corr: term((e) => e.tb_corr),
    feature_exposure: exposures && exposureSummary(exposures, features),
    designated_corr: entered.length === 0 ? null : seriesDiagnostics(entered.map((e) => e.designated_corr as number)).mean,
    benchmark_corr:
      both.length < 2
        ? null
        : seriesDiagnostics(
            both.map((e) => e.corr as number),
            both.map((e) => benchmarkCorr.get(e.exped) as number),
          ).benchmark_corr,
  };
}

/** The summary with each series' mean, std and Sharpe minus the benchmark summary's of the same series. */
export function withBenchmarkDeltas(summary: BacktestSummary, benchmark: BacktestSummary): BacktestSummary {
  const delta = (own: SeriesStats, bench: SeriesStats): SeriesStats => ({
    ...own,
    vs_benchmark: { mean: own.mean - bench.mean, std: own.std - bench.std, sharpe: own.sharpe - bench.sharpe },
  });
  return {
    ...summary,
    corr: delta(summary.corr, benchmark.corr),
    aimc: delta(summary.aimc, benchmark.aimc),
    ncorr: delta(summary.ncorr, benchmark.ncorr),
    score: { ...delta(summary.score, benchmark.score), total: summary.score.total },
    fn_corr: summary.fn_corr && benchmark.fn_corr ? delta(summary.fn_corr, benchmark.fn_corr) : summary.fn_corr,
    tb_corr: delta(summary.tb_corr, benchmark.tb_corr),
  };
}

/** The largest of one exped's feature exposures, and its feature (the first on a tie). */
export function maxExposure(exposures: number[] | undefined, features: string[]): ExpedScore["max_exposure"] {
  if (!exposures || exposures.length === 0) return null;
  const j = argmax(exposures);
  return { feature: features[j], value: exposures[j] };
}

/** The index of the largest value, the first on a tie. */
const argmax = (xs: number[]): number => xs.reduce((best, v, j) => (v > xs[best] ? j : best), 0);

/** Mean of the per-exped maxima (naming the feature most often the max), the pooled max, and the top features by mean exposure. */
function exposureSummary({ perExped, pooled }: FeatureExposures, features: string[]): ExposureSummary | null {
  if (perExped.length === 0 || features.length === 0) return null;
  const maxima = perExped.map(argmax);
  const timesMax = features.map((_, j) => maxima.filter((m) => m === j).length);
  const mean = features.map((_, j) => seriesDiagnostics(perExped.map((row) => row[j])).mean);
  const top = [...features.keys()].sort((a, b) => mean[b] - mean[a] || a - b).slice(0, TOP_FEATURES);
  const pooledMax = argmax(pooled);
  return {
    mean_max: seriesDiagnostics(perExped.map((row, e) => row[maxima[e]])).mean,
    mean_max_feature: features[argmax(timesMax)],
    pooled_max: pooled[pooledMax],
    pooled_max_feature: features[pooledMax],
    top: top.map((j) => ({ feature: features[j], mean: mean[j], pooled: pooled[j] })),
  };
}
