import { pearson } from "../scoring/pearson.js";
import { asFloat64, MISSING, rowsByExped, type Frame, type NumericColumn } from "../domain/frame.js";
import { fitLinear, predictLinear, type LinearModel } from "./least-squares.js";
import { uniformRanks } from "./ranks.js";
import { DESIGNATED, FEATURE_BINS } from "./schema.js";

/**
 * The designated benchmark `v1_designated`: least squares on train over the handful of features
 * most correlated with the target, published per exped as `(rank - 0.5) / n`. Deliberately
 * simple: it finds part of the persistent signal, so it scores a modest positive CORR that a
 * model using every feature can beat.
 */
export const BENCHMARK_FEATURE_COUNT = 3;

export interface BenchmarkModel {
  features: string[];
  fit: LinearModel;
}

export function fitBenchmarkModel(train: Frame, features: string[], target: string): BenchmarkModel {
  const y = asFloat64(train.columns[target]);
  const strength = features.map((f) => Math.abs(pearson(imputed(train.columns[f]), y, y.length)));
  const chosen = features
    .map((f, j) => ({ f, s: strength[j] }))
    .sort((a, b) => b.s - a.s)
    .slice(0, BENCHMARK_FEATURE_COUNT)
    .map(({ f }) => f);
  return { features: chosen, fit: fitLinear(chosen.map((f) => imputed(train.columns[f])), y) };
}

/** The benchmark file's frame for `frame`'s rows: same ids and exped, column v1_designated in (0, 1). */
export function benchmarkFrame(model: BenchmarkModel, frame: Frame): Frame {
  const raw = predictLinear(model.fit, model.features.map((f) => imputed(frame.columns[f])));
  const designated = new Float64Array(raw.length);
  for (const rows of rowsByExped(frame).values()) {
    const u = uniformRanks(Float64Array.from(rows, (i) => raw[i]));
    rows.forEach((i, k) => (designated[i] = u[k]));
  }
  return { ids: frame.ids, exped: frame.exped, columns: { [DESIGNATED]: designated } };
}

/**
 * A feature column as the benchmark and the built-in ridge agents see it: missing cells (the
 * sentinel or not finite) at the middle bin (a loop: `Float64Array.from` with a mapping function
 * is many times slower).
 */
export function imputed(col: NumericColumn): Float64Array {
  const middle = (FEATURE_BINS - 1) / 2;
  const out = new Float64Array(col.length);
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    out[i] = x === MISSING || !Number.isFinite(x) ? middle : x;
  }
  return out;
}
