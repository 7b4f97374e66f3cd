import { existsSync, readdirSync } from "node:fs";
import { DataType, Precision } from "apache-arrow";
import { join } from "node:path";
import { EXPED_COLUMNS, expedColumnOf, readDirFrame, requireNumeric } from "./dir-frame.js";
import { asFloat64, columnsWithoutRows, rowsByExped, selectColumns, takeRows, type Frame } from "../domain/frame.js";
import { sameStrings } from "../domain/same-strings.js";
import type { Dataset, LiveRound } from "./generate.js";
import { ParquetFile } from "./parquet-file.js";
import { DESIGNATED, benchmarkFileName, type Split } from "./schema.js";

/**
 * A dataset read from a directory in the service's own file layout: `train.parquet`,
 * `validation.parquet`, optional `live.parquet`, and `<prefix>_<split>_benchmark_models.parquet`.
 *
 * The rounds are the first live expeds when `live.parquet` carries the scored target (some finite
 * value); otherwise the last validation expeds, which then leave the served validation split (and
 * its benchmark file) so that no round's target is published.
 */
export interface DatasetDirSettings {
  /** The directory; the scenario loader makes it absolute (relative to the scenario file). */
  dir: string;
  /** The scored target column; default `target`. */
  target?: string;
  /** The hidden NCORR core features; default none (NCORR then neutralises against the intercept only). */
  core_features?: string[];
  /** Benchmark file prefix; default the one prefix of the directory's `*_train_benchmark_models.parquet`. */
  prefix?: string;
}

/** How a directory is read: what its caller knows it will not need (code's choice, never a scenario's). */
export interface DatasetRead {
  /**
   * Leave the train split and its benchmark file unread, served with their columns and no rows:
   * for a walk in which nothing fits (a model file, the benchmark copier), which then neither waits
   * for the largest file nor holds it.
   */
  skipTrain?: boolean;
  /** `train.parquet`, already opened and checked (PandasTrainFile.file): not opened again. */
  trainFile?: ParquetFile;
}

/** Datasets read by loadDatasetDir whose rounds are their live.parquet's (roundsFromLive). */
const liveRounds = new WeakSet<Dataset>();

/**
 * Whether a dataset read by loadDatasetDir took its rounds from live.parquet (which carries the
 * scored target) rather than holding out validation's last expeds: asked of the read, not of the
 * file again. False for a dataset not read from a directory.
 */
export function roundsFromLive(dataset: Dataset): boolean {
  return liveRounds.has(dataset);
}

const FEATURE_PREFIX = "feature_";
const TARGET_PREFIX = "target";

export async function loadDatasetDir(settings: DatasetDirSettings, nExpeds: number, read: DatasetRead = {}): Promise<Dataset> {
  const at = (name: string) => join(settings.dir, name);
  const prefix = settings.prefix ?? discoverPrefix(settings.dir);
  const trainFile = read.trainFile?.path === at("train.parquet") ? read.trainFile : await ParquetFile.open(at("train.parquet"));
  const features = namesStarting(trainFile, FEATURE_PREFIX);
  if (features.length === 0) throw new Error(`${trainFile.path}: no feature_* columns`);
  const target = scoredTarget(trainFile, settings.target);
  const core = settings.core_features ?? [];
  for (const f of core) {
    if (!features.includes(f)) throw new Error(`${trainFile.path}: no column '${f}' (named in dataset.core_features)`);
  }
  const split = async (name: Split) => {
    const file = name === "train" ? trainFile : await ParquetFile.open(at(`${name}.parquet`));
    if (name === "train" && read.skipTrain) return { frame: unreadSplit(file, features), benchmark: unreadSplit(null, [DESIGNATED]) };
    const frame = await readSplit(file, features, target);
    return { frame, benchmark: await readBenchmark(at(benchmarkFileName(prefix, name)), frame, file.path) };
  };
  // The splits are read side by side: each file's decoding threads start while another's run.
  const [train, validation] = await Promise.all([split("train"), split("validation")]);
  const base = { spec: { prefix }, features, core_features: core, target, train: train.frame };

  if (await liveCarriesTarget(at("live.parquet"), target)) {
    const live = await split("live");
    const labels = expedsOf(live.frame);
    if (labels.length < nExpeds) throw new Error(`${at("live.parquet")}: ${labels.length} expeds, but the scenario's rounds need ${nExpeds}`);
    const dataset = {
      ...base,
      validation: validation.frame,
      benchmarks: { train: train.benchmark, validation: validation.benchmark },
      rounds: roundsOf(live.frame, live.benchmark, labels.slice(0, nExpeds), features, target),
    };
    liveRounds.add(dataset);
    return dataset;
  }
  const labels = expedsOf(validation.frame);
  if (labels.length <= nExpeds) {
    throw new Error(
      `${at("validation.parquet")}: ${labels.length} expeds, too few to hold out ${nExpeds} rounds and still serve a validation split ` +
        `(there is no live.parquet with target '${target}')`,
    );
  }
  const held = new Set(labels.slice(-nExpeds));
  const served = keepRows(validation.frame, (i) => !held.has(validation.frame.exped[i]));
  const servedIds = new Set(served.ids);
  return {
    ...base,
    validation: served,
    benchmarks: { train: train.benchmark, validation: keepRows(validation.benchmark, (i) => servedIds.has(validation.benchmark.ids[i])) },
    rounds: roundsOf(validation.frame, validation.benchmark, [...held], features, target),
  };
}

/** A train split's file as pandas reads it: its path, its exped column's name, its rows. */
export interface PandasTrainFile {
  path: string;
  exped: string;
  rows: number;
  /** The served split's numeric columns (its features, then the file's targets), which a fit reads from the file. */
  columns: string[];
  /** The file as opened here, for the dataset's read to take (DatasetRead.trainFile). */
  file: ParquetFile;
}

/**
 * The directory's `train.parquet` when pd.read_parquet gives the split as it is served here, for a
 * strategy's own worker to read rather than be sent it: `id` is its pandas index and a string
 * column, the exped labels are strings (`exped`, or `era`, which the worker names `exped`), and
 * every feature and target column is an int of at most 32 bits or a float32/float64, which both
 * read in the same type. Null otherwise (integer eras are padded here; pandas keeps them ints).
 */
export async function pandasTrainFile(settings: DatasetDirSettings): Promise<PandasTrainFile | null> {
  const file = await ParquetFile.open(join(settings.dir, "train.parquet"));
  const exped = EXPED_COLUMNS.find((c) => file.fields.has(c));
  if (!file.pandasIndex || !isString(file.fields.get(file.index)) || exped === undefined || !isString(file.fields.get(exped))) return null;
  const served = servedColumns(file, namesStarting(file, FEATURE_PREFIX));
  if (!served.every((name) => readAlike(file.fields.get(name) as DataType))) return null;
  return { path: file.path, exped, rows: file.rows, columns: served, file };
}

function isString(type: DataType | undefined): boolean {
  return DataType.isUtf8(type) || DataType.isLargeUtf8(type);
}

/** A numeric type that pandas and this reader give alike. */
function readAlike(type: DataType): boolean {
  return (DataType.isInt(type) && type.bitWidth <= 32) || (DataType.isFloat(type) && type.precision !== Precision.HALF);
}

/** The one `<prefix>` of `<prefix>_train_benchmark_models.parquet` in `dir`. */
function discoverPrefix(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new Error(`cannot read dataset directory ${dir}: ${(e as Error).message}`);
  }
  const suffix = benchmarkFileName("", "train");
  const prefixes = names.filter((n) => n.endsWith(suffix) && n.length > suffix.length).map((n) => n.slice(0, -suffix.length));
  if (prefixes.length === 1) return prefixes[0];
  if (prefixes.length === 0) throw new Error(`${dir}: no <prefix>${suffix} file`);
  throw new Error(`${dir}: several benchmark prefixes (${prefixes.join(", ")}); name one in dataset.prefix`);
}

function namesStarting(file: ParquetFile, prefix: string): string[] {
  return [...file.fields.keys()].filter((n) => n.startsWith(prefix));
}

/** The named target, else `target`; an error lists the file's target columns. */
function scoredTarget(train: ParquetFile, named: string | undefined): string {
  const targets = namesStarting(train, TARGET_PREFIX);
  const target = named ?? TARGET_PREFIX;
  if (targets.includes(target)) return target;
  const listed = targets.length ? targets.join(", ") : "none";
  throw new Error(`${train.path}: no column '${target}'${named ? "" : " (name the scored target in dataset.target)"}; its target columns: ${listed}`);
}

/** The split's features and all its target columns (the scored one required). */
function readSplit(file: ParquetFile, features: string[], target: string): Promise<Frame> {
  const targets = namesStarting(file, TARGET_PREFIX);
  if (!targets.includes(target)) throw new Error(`${file.path}: no column '${target}' (the scored target)`);
  return readDirFrame(file, [...features, ...targets]);
}

/** A split left unread (`skipTrain`): its numeric columns (`features` and the file's targets), no rows. */
function unreadSplit(file: ParquetFile | null, names: string[]): Frame {
  return columnsWithoutRows(file ? servedColumns(file, names) : names);
}

/** A split's numeric columns as served: `features`, then the file's targets. */
function servedColumns(file: ParquetFile, features: string[]): string[] {
  return [...features, ...namesStarting(file, TARGET_PREFIX)];
}

/** Whether `path` exists and its `target` column has a finite value (real live files carry it blank). */
async function liveCarriesTarget(path: string, target: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const file = await ParquetFile.open(path);
  if (!file.fields.has(target)) return false;
  requireNumeric(file, [target]);
  const column = (await file.read([target])).get(target) as Frame["columns"][string];
  return column.some(Number.isFinite);
}

/**
 * A benchmark file: `v1_designated` and any other benchmark columns, over exactly the split's ids.
 * When its rows are the split's in the same order (as the service's files are), it shares the
 * split's ids and exped labels rather than holding a second copy of each row's strings.
 */
async function readBenchmark(path: string, split: Frame, splitPath: string): Promise<Frame> {
  const file = await ParquetFile.open(path);
  if (!file.fields.has(DESIGNATED)) throw new Error(`${path}: no column '${DESIGNATED}'`);
  expedColumnOf(file);
  const models = [...file.fields.keys()].filter((n) => n !== file.index && !(EXPED_COLUMNS as readonly string[]).includes(n));
  requireNumeric(file, models);
  const frame = await readDirFrame(file, models);
  const ids = requireSameIds(frame.ids, path, split.ids, splitPath) ? split.ids : frame.ids;
  return { ids, exped: ids === split.ids && sameStrings(frame.exped, split.exped) ? split.exped : frame.exped, columns: frame.columns };
}

/** Throws unless `ids` are the split's ids (each once, in any order); true when they are also in the split's order. */
function requireSameIds(ids: string[], path: string, splitIds: string[], splitPath: string): boolean {
  const expected = new Set(splitIds);
  if (expected.size !== splitIds.length) throw new Error(`${splitPath}: ${splitIds.length - expected.size} duplicate ids`);
  if (sameStrings(ids, splitIds)) return true;
  const stray = ids.find((id) => !expected.has(id));
  const mismatch =
    stray !== undefined
      ? `id '${stray}' is not in ${splitPath}`
      : new Set(ids).size !== splitIds.length
        ? `${ids.length} rows with ${new Set(ids).size} distinct ids for the split's ${splitIds.length}`
        : null;
  if (mismatch) throw new Error(`${path}: its ids do not match ${splitPath}'s: ${mismatch}`);
  return false;
}

/** The frame's exped labels in sorted (time) order. */
function expedsOf(frame: Frame): string[] {
  return [...rowsByExped(frame).keys()].sort();
}

/** One round per label: its rows' features, the scored target, and the benchmark rows of the same ids. */
function roundsOf(frame: Frame, benchmark: Frame, labels: string[], features: string[], target: string): LiveRound[] {
  const groups = rowsByExped(frame);
  const benchmarkRow = new Map(benchmark.ids.map((id, i) => [id, i]));
  return labels.map((exped) => {
    const part = takeRows(frame, groups.get(exped) as number[]);
    return {
      exped,
      frame: selectColumns(part, features),
      target: asFloat64(part.columns[target]),
      benchmark: takeRows(benchmark, part.ids.map((id) => benchmarkRow.get(id) as number)),
    };
  });
}

/** The rows for which `keep` holds: views of the columns when they are one run (the usual case), else a copy. */
function keepRows(frame: Frame, keep: (row: number) => boolean): Frame {
  const rows: number[] = [];
  for (let i = 0; i < frame.ids.length; i++) if (keep(i)) rows.push(i);
  const start = rows[0] ?? 0;
  const end = start + rows.length;
  if (rows.length > 0 && rows[rows.length - 1] !== end - 1) return takeRows(frame, rows);
  const columns = Object.fromEntries(Object.entries(frame.columns).map(([name, col]) => [name, col.subarray(start, end)]));
  return { ids: frame.ids.slice(start, end), exped: frame.exped.slice(start, end), columns };
}
