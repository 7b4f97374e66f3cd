import { rowsByExped, type Frame } from "../../data/frame.js";
import { fitLinear, predictLinear, type LinearModel } from "../../data/least-squares.js";
import { DESIGNATED } from "../../data/schema.js";
import { prepareExped, scoreAgainst, type ExpedTerms } from "../../scoring/exped.js";
import { CV_FOLDS } from "./estimate.js";

/** Expeds dropped from the training side on each side of a held-out fold. */
export const EMBARGO_EXPEDS = 1;
/** What the preset puts in place of a missing (NaN) cell; the −1 sentinel passes through as a value. */
export const FILL_VALUE = 0.0;

export interface TermStats {
  mean: number | null;
  std: number | null;
}

export interface RidgeFit {
  cv: { corr: TermStats; aimc_estimate: TermStats; ncorr: TermStats; folds: number; expeds_scored: number; embargo_expeds: number };
  /** The model refitted on every train row. */
  model: LinearModel;
}

export interface RidgeInput {
  train: Frame;
  /** The train benchmark file (`v1_designated` by id), for AIMC. */
  benchmark: Frame;
  features: string[];
  target: string;
  core: string[];
  /** The ridge penalty per training row. */
  alpha: number;
}

/**
 * Exped-purged, embargoed CV of a ridge over the whole train split: expeds in label (time) order
 * are cut into CV_FOLDS contiguous folds; each fold is held out in turn and the ridge fitted on the
 * rest less EMBARGO_EXPEDS expeds either side; every held-out exped is scored (CORR, AIMC, NCORR).
 * Throws when a fit is not finite.
 */
export function fitRidgeCv(input: RidgeInput): RidgeFit {
  const byExped = rowsByExped(input.train);
  const expeds = [...byExped.keys()].sort();
  const foldOf = (i: number) => Math.floor((i * CV_FOLDS) / expeds.length);
  const benchmarkById = designatedById(input.benchmark);
  const terms: ExpedTerms[] = [];
  let folds = 0;
  for (let fold = 0; fold < CV_FOLDS; fold++) {
    const held = expeds.map((_, i) => i).filter((i) => foldOf(i) === fold);
    if (held.length === 0) continue;
    const lo = held[0] - EMBARGO_EXPEDS;
    const hi = held[held.length - 1] + EMBARGO_EXPEDS;
    const fitRows = expeds.flatMap((e, i) => (i < lo || i > hi ? (byExped.get(e) as number[]) : []));
    if (fitRows.length === 0) continue;
    const model = fit(input, fitRows);
    folds++;
    for (const i of held) terms.push(scoreExped(input, byExped.get(expeds[i]) as number[], model, benchmarkById));
  }
  const all = input.train.ids.map((_, i) => i);
  return {
    cv: {
      corr: stats(terms.map((t) => t.corr)),
      aimc_estimate: stats(terms.flatMap((t) => (t.aimc === null ? [] : [t.aimc]))),
      ncorr: stats(terms.map((t) => t.ncorr)),
      folds,
      expeds_scored: terms.length,
      embargo_expeds: EMBARGO_EXPEDS,
    },
    model: fit(input, all),
  };
}

/** Feature columns over `rows` as the preset sees them: NaN → FILL_VALUE. */
function presetColumns(frame: Frame, features: string[], rows: number[]): Float64Array[] {
  return features.map((f) => {
    const col = frame.columns[f];
    return Float64Array.from(rows, (r) => (Number.isNaN(col[r]) ? FILL_VALUE : col[r]));
  });
}

function fit(input: RidgeInput, rows: number[]): LinearModel {
  const y = input.train.columns[input.target];
  const labelled = rows.filter((r) => Number.isFinite(y[r]));
  const model = fitLinear(presetColumns(input.train, input.features, labelled), Float64Array.from(labelled, (r) => y[r]), input.alpha * labelled.length);
  if (!Number.isFinite(model.intercept) || model.coefficients.some((c) => !Number.isFinite(c))) {
    throw new Error(`the ridge fit on ${labelled.length} rows is not finite`);
  }
  return model;
}

function scoreExped(input: RidgeInput, rows: number[], model: LinearModel, benchmark: Map<string, number> | null): ExpedTerms {
  const ids = rows.map((r) => input.train.ids[r]);
  const prepared = prepareExped({
    ids,
    target: Float64Array.from(rows, (r) => input.train.columns[input.target][r]),
    benchmark: benchmark ? Float64Array.from(ids, (id) => benchmark.get(id) ?? Number.NaN) : null,
    core: input.core.map((f) => Float64Array.from(rows, (r) => input.train.columns[f][r])),
  });
  return scoreAgainst(prepared, ids, predictLinear(model, presetColumns(input.train, input.features, rows)));
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
