/**
 * The dataset's names and shape: what the service calls its columns, files and splits, and the
 * knobs of the synthetic generator.
 */
export const TARGET = "target_everest";
export const DESIGNATED = "v1_designated";

export const splits = ["train", "validation", "live"] as const;
export type Split = (typeof splits)[number];

export function benchmarkFileName(prefix: string, split: Split): string {
  return `${prefix}_${split}_benchmark_models.parquet`;
}

export interface DatasetSpec {
  /** File-name prefix of the published files. */
  prefix: string;
  n_features: number;
  /** Size of the designated core-feature subset NCORR neutralises against; never published. */
  n_core: number;
  /** Share of feature cells replaced by the MISSING sentinel. */
  missing_share: number;
  train_expeds: number;
  validation_expeds: number;
  /** Rows per exped of train and validation. */
  rows_per_exped: number;
  /** Unpublished expeds between train and validation, and between validation and the first live round. */
  gap_expeds: number;
  /** Rows of each round's live split (the round's instruments). */
  universe_size: number;
  /** Scales the planted signal's strength (0 = pure noise). */
  signal: number;
  /** Expeds per regime of the signal's changing part. */
  regime_length: number;
}

export const defaultDatasetSpec: DatasetSpec = {
  prefix: "bc",
  n_features: 24,
  n_core: 10,
  missing_share: 0.05,
  train_expeds: 120,
  validation_expeds: 30,
  rows_per_exped: 200,
  gap_expeds: 8,
  universe_size: 200,
  signal: 1.0,
  regime_length: 20,
};

/** Feature values are quintile bins 0..4 of each exped (MISSING aside). */
export const FEATURE_BINS = 5;

/** `exped_NNNN`: zero-padded so that string order is time order. */
export const MAX_EXPED = 9999;

export function expedLabel(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_EXPED) throw new Error(`exped number ${n} is outside 1..${MAX_EXPED}`);
  return `exped_${String(n).padStart(4, "0")}`;
}

const ADJECTIVES = ["steep", "icy", "windy", "rocky", "sheer", "snowy", "misty", "frozen", "rugged", "thin", "high", "narrow"];
const NOUNS = ["ridge", "col", "couloir", "serac", "cornice", "glacier", "summit", "crevasse", "moraine", "buttress", "traverse", "arete"];

/** `feature_<adj>_<noun>`, unique for any n (a numeric suffix once the word pairs run out). */
export function featureNames(n: number): string[] {
  const pairs = ADJECTIVES.length * NOUNS.length;
  return Array.from({ length: n }, (_, i) => {
    const k = i % pairs;
    const base = `feature_${ADJECTIVES[k % ADJECTIVES.length]}_${NOUNS[Math.floor(k / ADJECTIVES.length)]}`;
    return i < pairs ? base : `${base}_${Math.floor(i / pairs)}`;
  });
}
