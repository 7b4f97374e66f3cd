import type { Rng } from "../domain/rng.js";
import { benchmarkFrame, fitBenchmarkModel } from "./benchmark-model.js";
import { drawExpedRows } from "./exped-rows.js";
import { asFloat64, selectColumns, type Frame } from "../domain/frame.js";
import { RowIdMint } from "./row-ids.js";
import { FEATURE_BINS, MAX_EXPED, TARGET, expedLabel, featureNames, type DatasetSpec } from "./schema.js";
import { Signal } from "./signal.js";

/**
 * The seeded synthetic dataset: train and validation (features + target), the designated
 * benchmark over both, and one live round per exped after them. Every draw comes from a fork of
 * `rng` named by purpose and exped, so one seed gives the same bytes and more rounds never change
 * the earlier splits.
 */
export interface LiveRound {
  /** The round's exped label (one exped per round). */
  exped: string;
  /** Features only, what agents download as `live`; ids are the round's instrument ids. */
  frame: Frame;
  /** The hidden realised target, aligned with `frame`'s rows. */
  target: Float64Array;
  /** Column v1_designated, same ids. */
  benchmark: Frame;
}

export interface Dataset {
  /** Names the published files; a generated dataset's is its full generator spec. */
  spec: Pick<DatasetSpec, "prefix">;
  features: string[];
  core_features: string[];
  target: string;
  train: Frame;
  validation: Frame;
  benchmarks: { train: Frame; validation: Frame };
  rounds: LiveRound[];
}

export function generateDataset(spec: DatasetSpec, rng: Rng, nRounds: number): Dataset {
  checkDatasetSpec(spec, nRounds);
  const validationStart = spec.train_expeds + spec.gap_expeds + 1;
  const liveStart = validationStart + spec.validation_expeds + spec.gap_expeds;
  const features = featureNames(spec.n_features);
  const core = rng
    .fork("core")
    .shuffle([...features.keys()])
    .slice(0, spec.n_core)
    .sort((a, b) => a - b);
  const signal = new Signal(rng.fork("signal"), spec.n_features, core, spec.signal, spec.regime_length);
  const mint = new RowIdMint();

  /** One frame of features + target over the expeds numbered `numbers`, `rows` rows each. */
  const draw = (numbers: number[], rows: number): Frame => {
    const n = numbers.length * rows;
    const columns = features.map(() => new Float64Array(n));
    const target = new Float64Array(n);
    const ids: string[] = [];
    const exped: string[] = [];
    numbers.forEach((number, e) => {
      const label = expedLabel(number);
      ids.push(...mint.mint(rng.fork(`ids:${label}`), rows));
      for (let i = 0; i < rows; i++) exped.push(label);
      drawExpedRows(rng.fork(`exped:${label}`), signal.weights(number), spec.missing_share, columns, target, e * rows, rows);
    });
    return { ids, exped, columns: { ...Object.fromEntries(features.map((f, j) => [f, columns[j]])), [TARGET]: target } };
  };

  const train = draw(range(1, spec.train_expeds), spec.rows_per_exped);
  const validation = draw(range(validationStart, spec.validation_expeds), spec.rows_per_exped);
  const model = fitBenchmarkModel(train, features, TARGET);
  const rounds = range(liveStart, nRounds).map((number): LiveRound => {
    const drawn = draw([number], spec.universe_size);
    const frame = selectColumns(drawn, features);
    return { exped: expedLabel(number), frame, target: asFloat64(drawn.columns[TARGET]), benchmark: benchmarkFrame(model, frame) };
  });
  return {
    spec,
    features,
    core_features: core.map((j) => features[j]),
    target: TARGET,
    train,
    validation,
    benchmarks: { train: benchmarkFrame(model, train), validation: benchmarkFrame(model, validation) },
    rounds,
  };
}

function range(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => start + i);
}

/** The most values (features and targets, train, validation and live rows) a generated dataset holds: refused before any is drawn. */
const MAX_GENERATED_VALUES = 2 ** 28;

/** Refuses a spec the generator cannot or should not draw (a bound broken, too many values), naming the field; draws nothing. */
export function checkDatasetSpec(spec: DatasetSpec, nRounds: number): void {
  const counts: [string, number, number][] = [
    ["n_features", spec.n_features, 1],
    ["n_core", spec.n_core, 0],
    ["train_expeds", spec.train_expeds, 1],
    ["validation_expeds", spec.validation_expeds, 1],
    ["rows_per_exped", spec.rows_per_exped, FEATURE_BINS],
    ["gap_expeds", spec.gap_expeds, 0],
    ["universe_size", spec.universe_size, FEATURE_BINS],
    ["regime_length", spec.regime_length, 1],
    ["nRounds", nRounds, 0],
  ];
  for (const [name, value, min] of counts) {
    if (!Number.isInteger(value) || value < min) throw new Error(`DatasetSpec ${name} must be an integer >= ${min}, got ${value}`);
  }
  if (spec.n_core > spec.n_features) throw new Error(`DatasetSpec n_core (${spec.n_core}) exceeds n_features (${spec.n_features})`);
  if (!(spec.missing_share >= 0 && spec.missing_share < 1)) throw new Error(`DatasetSpec missing_share must be in [0, 1), got ${spec.missing_share}`);
  const lastExped = spec.train_expeds + spec.validation_expeds + 2 * spec.gap_expeds + nRounds;
  if (lastExped > MAX_EXPED) throw new Error(`DatasetSpec needs ${lastExped} expeds, more than the ${MAX_EXPED} labels exped_NNNN has`);
  const rows = (spec.train_expeds + spec.validation_expeds) * spec.rows_per_exped + nRounds * spec.universe_size;
  const values = rows * (spec.n_features + 1);
  if (values > MAX_GENERATED_VALUES) {
    throw new Error(`DatasetSpec makes ${rows} rows of ${spec.n_features} features and a target, ${values} values: at most ${MAX_GENERATED_VALUES} (2 GiB of float64); lower rows_per_exped, universe_size, train_expeds, validation_expeds or n_features`);
  }
  if (!(spec.signal >= 0)) throw new Error(`DatasetSpec signal must be >= 0, got ${spec.signal}`);
}
