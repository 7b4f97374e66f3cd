import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Schema, Table, tableToIPC, type Vector } from "apache-arrow";
import { Table as WasmTable, writeParquet } from "parquet-wasm";
import { Rng } from "../../src/domain/rng.js";
import { concatFrames, type Frame, type NumericColumn } from "../../src/domain/frame.js";
import { generateDataset } from "../../src/data/generate.js";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { TARGET, benchmarkFileName } from "../../src/data/schema.js";

/** What the written live split carries: the realised target, a blank target column, or no file at all. */
export type LiveKind = "scored" | "blank" | "none";

export const DIR_PREFIX = "v5";
export const DIR_LIVE_EXPEDS = 4;

/** The frames a dataset directory was written from, by file name. */
export type WrittenDir = Record<string, Frame>;

/**
 * Writes a small dataset in the service's file layout with the project's own writer: an `era`
 * label column, quintile-bin feature values (-1 missing), two targets (`target`, scored, and
 * `target_aux`), and the three benchmark files. The values come from the seeded generator.
 */
export function writeDatasetDir(dir: string, live: LiveKind = "scored"): WrittenDir {
  mkdirSync(dir, { recursive: true });
  const spec = {
    prefix: DIR_PREFIX,
    n_features: 6,
    n_core: 2,
    missing_share: 0.05,
    train_expeds: 10,
    validation_expeds: 6,
    rows_per_exped: 40,
    gap_expeds: 1,
    universe_size: 30,
    signal: 1,
    regime_length: 5,
  };
  const d = generateDataset(spec, new Rng(11).fork("dataset"), DIR_LIVE_EXPEDS);
  const withTargets = (f: Frame, target: NumericColumn): Frame => {
    const { [TARGET]: _drop, ...rest } = f.columns;
    return { ...f, columns: { ...rest, target, target_aux: target.map((t) => 1 - t) } };
  };
  const liveTarget = Float64Array.from(d.rounds.flatMap((r) => [...r.target]));
  const files: WrittenDir = {
    "train.parquet": withTargets(d.train, d.train.columns[TARGET]),
    "validation.parquet": withTargets(d.validation, d.validation.columns[TARGET]),
    [benchmarkFileName(DIR_PREFIX, "train")]: d.benchmarks.train,
    [benchmarkFileName(DIR_PREFIX, "validation")]: d.benchmarks.validation,
    [benchmarkFileName(DIR_PREFIX, "live")]: concatFrames(d.rounds.map((r) => r.benchmark)),
  };
  if (live !== "none") {
    const frame = concatFrames(d.rounds.map((r) => r.frame));
    files["live.parquet"] = withTargets(frame, live === "scored" ? liveTarget : liveTarget.fill(Number.NaN));
  }
  for (const [name, frame] of Object.entries(files)) writeDirFile(dir, name, frame);
  return files;
}

/** A scenario replaying a dataset directory (written by writeDatasetDir under `home/data`): the path of its JSON file. */
export function datasetDirScenario(home: string): string {
  writeDatasetDir(join(home, "data"), "scored");
  const file = join(home, "scenario.json");
  const scenario = {
    name: "real-data",
    seed: 5,
    dataset: { dir: "data", core_features: ["feature_steep_ridge"] },
    calendar: { start: "2026-01-05", n_rounds: 3, resolve_after_rounds: 1 },
    agents: [{ name: "alice", key: "key-alice-0001", strategy: "ridge" }],
  };
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

/** One file of the layout, written like the service's (`id` index) with an `era` label column. */
export function writeDirFile(dir: string, name: string, frame: Frame): void {
  writeFileSync(join(dir, name), writeFrameParquet(frame, "era"));
}

/**
 * A parquet file of arbitrary arrow columns, with pandas metadata naming `index` as the stored
 * index (or a RangeIndex, stored nowhere, when null): the shapes pandas writes that
 * writeFrameParquet does not (int labels, int8 features, an unnamed index).
 */
export function writeTableParquet(columns: Record<string, Vector>, index: string | null): Uint8Array {
  const plain = new Table(columns);
  const range = { kind: "range", name: null, start: 0, stop: plain.numRows, step: 1 };
  const pandas = { index_columns: [index ?? range], columns: [] };
  const table = new Table(new Schema(plain.schema.fields, new Map([["pandas", JSON.stringify(pandas)]])), plain.batches);
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(table, "stream")));
}
