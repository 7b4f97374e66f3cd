import type { Frame } from "../../domain/frame.js";
import { DESIGNATED } from "../../data/schema.js";
import { prepareExped, scoreAgainst, type ExpedTerms } from "../../scoring/exped.js";
import { EMBARGO_EXPEDS, type Fold } from "./cv-plan.js";

export interface TermStats {
  mean: number | null;
  std: number | null;
}

/** The job status body's `metrics.cv`: each term's mean and spread over the held-out expeds. */
export interface CvMetrics {
  corr: TermStats;
  aimc_estimate: TermStats;
  ncorr: TermStats;
  folds: number;
  expeds_scored: number;
  embargo_expeds: number;
}

/** One fold's result, as the job's log shows it: what it was fitted and scored on, and its mean terms. */
export interface FoldResult {
  fold: number;
  fit_rows: number;
  held_expeds: number;
  held_rows: number;
  corr: number | null;
  aimc_estimate: number | null;
  ncorr: number | null;
}

/** What the held-out predictions are scored against. */
export interface CvTruth {
  train: Frame;
  /** The train benchmark file (`v1_designated` by id), for AIMC. */
  benchmark: Frame;
  target: string;
  core: string[];
}

/**
 * Scores held-out predictions with the settlement's own per-exped scoring (src/scoring/exped.ts):
 * `predicted(fold, rows)` gives the predictions of the model fitted without `fold` for the rows
 * of one of its held-out expeds. Every held-out exped is scored (CORR, AIMC, NCORR).
 */
export function scoreCv(truth: CvTruth, folds: Fold[], predicted: (fold: Fold, rows: number[]) => Float64Array): { cv: CvMetrics; folds: FoldResult[] } {
  const benchmark = designatedById(truth.benchmark);
  const all: ExpedTerms[] = [];
  const results = folds.map((fold) => {
    const terms = fold.held.map(({ rows }) => scoreRows(truth, rows, predicted(fold, rows), benchmark));
    all.push(...terms);
    const s = summarise(terms);
    return {
      fold: fold.fold,
      fit_rows: fold.fit_rows.length,
      held_expeds: fold.held.length,
      held_rows: fold.held.reduce((n, h) => n + h.rows.length, 0),
      corr: s.corr.mean,
      aimc_estimate: s.aimc_estimate.mean,
      ncorr: s.ncorr.mean,
    };
  });
  return { cv: { ...summarise(all), folds: folds.length, expeds_scored: all.length, embargo_expeds: EMBARGO_EXPEDS }, folds: results };
}

function scoreRows(truth: CvTruth, rows: number[], prediction: Float64Array, benchmark: Map<string, number> | null): ExpedTerms {
  const ids = rows.map((r) => truth.train.ids[r]);
  const prepared = prepareExped({
    ids,
    target: Float64Array.from(rows, (r) => truth.train.columns[truth.target][r]),
    benchmark: benchmark ? Float64Array.from(ids, (id) => benchmark.get(id) ?? Number.NaN) : null,
    core: truth.core.map((f) => Float64Array.from(rows, (r) => truth.train.columns[f][r])),
  });
  return scoreAgainst(prepared, ids, prediction);
}

function summarise(terms: ExpedTerms[]): Pick<CvMetrics, "corr" | "aimc_estimate" | "ncorr"> {
  return {
    corr: stats(terms.map((t) => t.corr)),
    aimc_estimate: stats(terms.flatMap((t) => (t.aimc === null ? [] : [t.aimc]))),
    ncorr: stats(terms.map((t) => t.ncorr)),
  };
}

function designatedById(benchmark: Frame): Map<string, number> | null {
  const col = benchmark.columns[DESIGNATED];
  if (!col) return null;
  return new Map(benchmark.ids.map((id, i) => [id, col[i]]));
}

/** Mean and sample standard deviation (0 for one value); nulls when there is none. */
function stats(xs: number[]): TermStats {
  if (xs.length === 0) return { mean: null, std: null };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length === 1) return { mean, std: 0 };
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return { mean, std: Math.sqrt(variance) };
}
