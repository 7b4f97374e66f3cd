import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeVector } from "apache-arrow";
import { loadDatasetDir, pandasTrainFile } from "../../src/data/dataset-dir.js";
import { readDirFrame } from "../../src/data/dir-frame.js";
import { ParquetFile } from "../../src/data/parquet-file.js";
import { asFloat64, rowsByExped, selectColumns } from "../../src/domain/frame.js";
import { DESIGNATED, benchmarkFileName } from "../../src/data/schema.js";
import { scoreExped } from "../../src/scoring/exped.js";
import { utf8Vector, float64Vector } from "../../src/data/arrow-columns.js";
import { DIR_LIVE_EXPEDS, DIR_PREFIX, writeDatasetDir, writeDirFile, writeTableParquet, type LiveKind, type WrittenDir } from "../helpers/dataset-dir.js";

const root = mkdtempSync(join(tmpdir(), "basecamp-dataset-dir-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirs = 0;
/** A fresh directory in the layout, and the frames it was written from. */
function written(live: LiveKind = "scored"): { dir: string; files: WrittenDir } {
  const dir = join(root, `d${dirs++}`);
  return { dir, files: writeDatasetDir(dir, live) };
}
const datasetDir = (live: LiveKind = "scored") => written(live).dir;

describe("loadDatasetDir", () => {
  it("reads the splits, both targets and the benchmarks, and takes the rounds from a live split that carries the target", async () => {
    const { dir, files } = written("scored");
    const d = await loadDatasetDir({ dir }, 3);
    expect(d.spec.prefix).toBe(DIR_PREFIX);
    expect(d.target).toBe("target");
    expect(d.features).toHaveLength(6);
    expect(d.core_features).toEqual([]);
    expect(Object.keys(d.train.columns)).toEqual([...d.features, "target", "target_aux"]);
    expect(Object.keys(d.validation.columns)).toEqual([...d.features, "target", "target_aux"]);
    expect(new Set(d.validation.exped).size).toBe(6);
    expect(d.benchmarks.validation.ids).toEqual(d.validation.ids);

    const live = files["live.parquet"];
    const liveExpeds = [...rowsByExped(live).keys()].sort();
    expect(liveExpeds).toHaveLength(DIR_LIVE_EXPEDS);
    expect(d.rounds.map((r) => r.exped)).toEqual(liveExpeds.slice(0, 3));
    const first = d.rounds[0];
    expect(Object.keys(first.frame.columns)).toEqual(d.features);
    const rows = rowsByExped(live).get(first.exped) as number[];
    expect(first.frame.ids).toEqual(rows.map((i) => live.ids[i]));
    expect([...first.target]).toEqual(rows.map((i) => live.columns.target[i]));
    expect(first.benchmark.ids).toEqual(first.frame.ids);
    expect(Object.keys(first.benchmark.columns)).toEqual([DESIGNATED]);
  });

  it("holds the last validation expeds out as the rounds when live has no target values, and serves validation without them", async () => {
    for (const kind of ["blank", "none"] as const) {
      const { dir, files } = written(kind);
      const full = files["validation.parquet"];
      const expeds = [...rowsByExped(full).keys()].sort();
      const d = await loadDatasetDir({ dir, prefix: DIR_PREFIX }, 2);
      expect(d.rounds.map((r) => r.exped)).toEqual(expeds.slice(-2));
      expect(new Set(d.validation.exped)).toEqual(new Set(expeds.slice(0, -2)));
      expect(d.benchmarks.validation.ids).toEqual(d.validation.ids);
      const held = new Set(d.rounds.flatMap((r) => r.frame.ids));
      expect(d.validation.ids.some((id) => held.has(id))).toBe(false);
      const last = d.rounds[1];
      const rows = rowsByExped(full).get(last.exped) as number[];
      expect([...last.target]).toEqual(rows.map((i) => full.columns.target[i]));
    }
  });

  it("with skipTrain, leaves train and its benchmark file unread (their columns, no rows) and reads the rest as without it", async () => {
    const { dir } = written("blank");
    unlinkSync(join(dir, benchmarkFileName(DIR_PREFIX, "train")));
    const full = await loadDatasetDir({ dir, prefix: DIR_PREFIX }, 2).catch((e: Error) => e);
    expect(full).toBeInstanceOf(Error); // the train benchmark file is gone: a full read needs it
    const d = await loadDatasetDir({ dir, prefix: DIR_PREFIX }, 2, { skipTrain: true });
    expect(d.train.ids).toEqual([]);
    expect(Object.keys(d.train.columns)).toEqual([...d.features, "target", "target_aux"]);
    expect(d.benchmarks.train.ids).toEqual([]);
    const again = await loadDatasetDir({ dir: datasetDir("blank"), prefix: DIR_PREFIX }, 2);
    expect(d.validation).toEqual(again.validation);
    expect(d.rounds.map((r) => [r.exped, r.frame.ids, [...r.target]])).toEqual(again.rounds.map((r) => [r.exped, r.frame.ids, [...r.target]]));
  });

  it("takes the named target and core features", async () => {
    const { dir, files } = written();
    const d = await loadDatasetDir({ dir, target: "target_aux", core_features: ["feature_icy_ridge"] }, 1);
    expect(d.target).toBe("target_aux");
    expect(d.core_features).toEqual(["feature_icy_ridge"]);
    const rows = rowsByExped(files["live.parquet"]).get(d.rounds[0].exped) as number[];
    expect([...d.rounds[0].target]).toEqual(rows.map((i) => 1 - files["live.parquet"].columns.target[i]));
  });

  it("scores NCORR like CORR when there are no core features (only the intercept is neutralised)", async () => {
    const d = await loadDatasetDir({ dir: datasetDir() }, 1);
    const r = d.rounds[0];
    const terms = scoreExped({
      ids: r.frame.ids,
      target: r.target,
      benchmark: asFloat64(r.benchmark.columns[DESIGNATED]),
      core: [],
      prediction: Float64Array.from(r.frame.columns[d.features[0]], (v, i) => v + i * 1e-3),
    });
    expect(terms.corr).not.toBe(0);
    expect(terms.ncorr).toBeCloseTo(terms.corr, 12);
  });
});

describe("readDirFrame: files as pandas writes them", () => {
  const path = join(root, "typed.parquet");
  const ids = ["n1", "n2", "n3"];
  const era = makeVector(Int32Array.from([7, 7, 120]));
  const feature = makeVector(Int8Array.from([0, 4, -1]));

  it("reads an unnamed index, an integer era as zero-padded labels and int8 features", async () => {
    writeFileSync(path, writeTableParquet({ era, feature_a: feature, __index_level_0__: utf8Vector(ids) }, "__index_level_0__"));
    const file = await ParquetFile.open(path);
    expect(file.index).toBe("__index_level_0__");
    expect(await readDirFrame(file, ["feature_a"])).toEqual({ ids, exped: ["0007", "0007", "0120"], columns: { feature_a: Int8Array.from([0, 4, -1]) } });
  });

  it("takes the key from an `id` column when the index is a RangeIndex, and refuses a file with neither", async () => {
    writeFileSync(path, writeTableParquet({ id: utf8Vector(ids), exped: utf8Vector(["a", "a", "b"]), feature_a: feature }, null));
    expect((await readDirFrame(await ParquetFile.open(path), ["feature_a"])).ids).toEqual(ids);
    writeFileSync(path, writeTableParquet({ key: utf8Vector(ids), exped: utf8Vector(["a", "a", "b"]) }, null));
    await expect(ParquetFile.open(path)).rejects.toThrow(`${path}: no id index and no 'id' column`);
  });

  it("refuses a file without an exped or era column, naming it", async () => {
    writeFileSync(path, writeTableParquet({ id: utf8Vector(ids), feature_a: feature }, "id"));
    await expect(ParquetFile.open(path).then((f) => readDirFrame(f, ["feature_a"]))).rejects.toThrow(`${path}: no column 'exped' (or 'era')`);
  });

  it("refuses a negative integer label and a float label column, naming file and column", async () => {
    writeFileSync(path, writeTableParquet({ id: utf8Vector(ids), era: makeVector(Int32Array.from([1, -2, 3])) }, "id"));
    await expect(ParquetFile.open(path).then((f) => readDirFrame(f, []))).rejects.toThrow(`${path}: column 'era' has -2 at row 1, expected an integer from 0 to 9999`);
    writeFileSync(path, writeTableParquet({ id: utf8Vector(ids), era: float64Vector(Float64Array.from([1, 2, 3])) }, "id"));
    await expect(ParquetFile.open(path).then((f) => readDirFrame(f, []))).rejects.toThrow(`${path}: column 'era' has type Float64, expected strings or integers`);
  });
});

describe("pandasTrainFile: a train file that pd.read_parquet gives as it is served", () => {
  it("names the file, its exped column, its rows and the served split's columns when `id` is its pandas index and the labels are strings", async () => {
    const { dir, files } = written();
    const found = await pandasTrainFile({ dir });
    expect(found).toMatchObject({ path: join(dir, "train.parquet"), exped: "era", rows: files["train.parquet"].ids.length });
    // The columns a fit reads from the file are the served split's (read with skipTrain, and with the file handed over).
    const served = await loadDatasetDir({ dir }, 1, { skipTrain: true, trainFile: found!.file });
    expect(found!.columns).toEqual(Object.keys(served.train.columns));
    expect(found!.columns.filter((c) => c.startsWith("feature_"))).toEqual(served.features);
  });

  it("is null for integer eras, an id column under a RangeIndex, and an int64 feature (pandas would give them otherwise)", async () => {
    const ids = utf8Vector(["n1", "n2"]);
    const labels = utf8Vector(["e1", "e2"]);
    const feature = makeVector(Int8Array.from([0, 4]));
    const cases = {
      integerEra: writeTableParquet({ id: ids, era: makeVector(Int32Array.from([1, 2])), feature_a: feature, target: float64Vector(Float64Array.of(0.5, 1)) }, "id"),
      rangeIndex: writeTableParquet({ id: ids, exped: labels, feature_a: feature, target: float64Vector(Float64Array.of(0.5, 1)) }, null),
      int64Feature: writeTableParquet({ id: ids, exped: labels, feature_a: makeVector(BigInt64Array.from([0n, 4n])), target: float64Vector(Float64Array.of(0.5, 1)) }, "id"),
      asServed: writeTableParquet({ id: ids, exped: labels, feature_a: feature, target: float64Vector(Float64Array.of(0.5, 1)) }, "id"),
    };
    const found: Record<string, string | null> = {};
    for (const [name, bytes] of Object.entries(cases)) {
      const dir = join(root, `train-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "train.parquet"), bytes);
      found[name] = (await pandasTrainFile({ dir }))?.exped ?? null;
    }
    expect(found).toEqual({ integerEra: null, rangeIndex: null, int64Feature: null, asServed: "exped" });
  });
});

describe("loadDatasetDir refusals", () => {
  const refusal = (dir: string, nRounds = 1, settings = {}) => loadDatasetDir({ dir, ...settings }, nRounds);

  it("names a missing file", async () => {
    const dir = datasetDir();
    unlinkSync(join(dir, "validation.parquet"));
    await expect(refusal(dir)).rejects.toThrow(`cannot read ${join(dir, "validation.parquet")}`);
    const bench = datasetDir();
    unlinkSync(join(bench, benchmarkFileName(DIR_PREFIX, "train")));
    await expect(refusal(bench, 1, { prefix: DIR_PREFIX })).rejects.toThrow(`cannot read ${join(bench, "v5_train_benchmark_models.parquet")}`);
    await expect(refusal(bench)).rejects.toThrow(`${bench}: no <prefix>_train_benchmark_models.parquet file`);
  });

  it("names the file and the column that is missing", async () => {
    const { dir, files } = written();
    const validation = files["validation.parquet"];
    const feature = Object.keys(validation.columns)[2];
    const { [feature]: _gone, ...rest } = validation.columns;
    writeDirFile(dir, "validation.parquet", { ...validation, columns: rest });
    await expect(refusal(dir)).rejects.toThrow(`${join(dir, "validation.parquet")}: no column '${feature}'`);

    const bench = written();
    writeDirFile(bench.dir, "v5_live_benchmark_models.parquet", selectColumns(bench.files["v5_live_benchmark_models.parquet"], []));
    await expect(refusal(bench.dir)).rejects.toThrow(`${join(bench.dir, "v5_live_benchmark_models.parquet")}: no column 'v1_designated'`);

    await expect(refusal(datasetDir(), 1, { target: "target_nope" })).rejects.toThrow(/train\.parquet: no column 'target_nope'; its target columns: target, target_aux/);
    await expect(refusal(datasetDir(), 1, { core_features: ["feature_nope"] })).rejects.toThrow(/train\.parquet: no column 'feature_nope' \(named in dataset\.core_features\)/);
  });

  it("lists the target columns when there is no `target` and none is named", async () => {
    const { dir, files } = written();
    const train = files["train.parquet"];
    const { target, ...rest } = train.columns;
    writeDirFile(dir, "train.parquet", { ...train, columns: { ...rest, target_main: target } });
    await expect(refusal(dir)).rejects.toThrow(/train\.parquet: no column 'target' \(name the scored target in dataset\.target\); its target columns: target_aux, target_main/);
  });

  it("shares a split's ids and exped labels with its benchmark file when the rows are in the same order, and reads one in another order as it is", async () => {
    const { dir, files } = written();
    const d = await loadDatasetDir({ dir }, 3);
    expect(d.benchmarks.train.ids).toBe(d.train.ids);
    expect(d.benchmarks.train.exped).toBe(d.train.exped);
    const name = "v5_train_benchmark_models.parquet";
    const b = files[name];
    const reversed = { ids: [...b.ids].reverse(), exped: [...b.exped].reverse(), columns: { [DESIGNATED]: b.columns[DESIGNATED].slice().reverse() } };
    writeDirFile(dir, name, reversed);
    const again = await loadDatasetDir({ dir }, 3);
    expect(again.benchmarks.train.ids).not.toBe(again.train.ids);
    expect(again.benchmarks.train).toEqual(reversed);
  });

  it("refuses a benchmark file whose ids are not its split's", async () => {
    const { dir, files } = written();
    const name = "v5_validation_benchmark_models.parquet";
    const path = join(dir, name);
    const b = files[name];
    writeDirFile(dir, name, { ...b, ids: b.ids.map((id, i) => (i === 5 ? "stranger" : id)) });
    await expect(refusal(dir)).rejects.toThrow(`${path}: its ids do not match ${join(dir, "validation.parquet")}'s: id 'stranger' is not in`);
    const short = { ...b, ids: b.ids.slice(1), exped: b.exped.slice(1), columns: { [DESIGNATED]: b.columns[DESIGNATED].slice(1) } };
    writeDirFile(dir, name, short);
    await expect(refusal(dir)).rejects.toThrow(/its ids do not match .*: 239 rows with 239 distinct ids for the split's 240/);
  });

  it("refuses a non-numeric feature, naming file and column", async () => {
    const { dir, files } = written();
    const train = files["train.parquet"];
    const columns = Object.fromEntries(
      Object.entries(train.columns).map(([n, c]) => [n, n === "feature_icy_ridge" ? utf8Vector([...c].map(String)) : float64Vector(asFloat64(c))]),
    );
    writeFileSync(join(dir, "train.parquet"), writeTableParquet({ id: utf8Vector(train.ids), era: utf8Vector(train.exped), ...columns }, "id"));
    await expect(refusal(dir)).rejects.toThrow(`${join(dir, "train.parquet")}: column 'feature_icy_ridge' has type Utf8, expected an int or float column`);
  });

  it("refuses too few validation expeds to hold the rounds out", async () => {
    await expect(refusal(datasetDir("none"), 6)).rejects.toThrow(/validation\.parquet: 6 expeds, too few to hold out 6 rounds/);
    await expect(refusal(datasetDir("scored"), 5)).rejects.toThrow(/live\.parquet: 4 expeds, but the scenario's rounds need 5/);
  });
});

describe("a file of several row groups, as pyarrow writes it", () => {
  const venvPython = fileURLToPath(new URL("../../.venv/bin/python", import.meta.url));
  const write = `
import sys
import numpy as np, pandas as pd, pyarrow as pa, pyarrow.parquet as pq
n = 1000
df = pd.DataFrame({
    "era": np.repeat(np.arange(1, 11), 100).astype("int32"),
    "feature_a": (np.arange(n) % 11 - 1).astype("int8"),
    "target": (np.arange(n) % 5 / 4).astype("float32"),
    "score": np.where(np.arange(n) % 7 == 0, np.nan, np.arange(n) / n),
}, index=pd.Index([f"eiq_{i:016x}" for i in range(n)], name="id"))
pq.write_table(pa.Table.from_pandas(df), sys.argv[1], row_group_size=128)
print(pq.ParquetFile(sys.argv[1]).num_row_groups)
`;

  it.skipIf(!existsSync(venvPython))("reads every row group into one column of the file's own type", async () => {
    const path = join(root, "groups.parquet");
    const groups = Number(execFileSync(venvPython, ["-c", write, path], { encoding: "utf8" }).trim());
    expect(groups).toBe(8);
    const file = await ParquetFile.open(path);
    expect(file.rows).toBe(1000);
    const frame = await readDirFrame(file, ["feature_a", "target", "score"]);
    expect(frame.ids[999]).toBe(`eiq_${(999).toString(16).padStart(16, "0")}`);
    expect(frame.exped[0]).toBe("0001");
    expect(frame.exped[999]).toBe("0010");
    expect(frame.columns.feature_a).toEqual(Int8Array.from({ length: 1000 }, (_, i) => (i % 11) - 1));
    expect(frame.columns.target).toEqual(Float32Array.from({ length: 1000 }, (_, i) => (i % 5) / 4));
    expect(frame.columns.score).toEqual(Float64Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? NaN : i / 1000)));
  });

  it.skipIf(!existsSync(venvPython))("decodes the same columns on this thread (a small file's way) as on reading threads (a large one's)", async () => {
    const path = join(root, "groups-both-ways.parquet");
    execFileSync(venvPython, ["-c", write, path]);
    const file = await ParquetFile.open(path);
    const columns = [...file.fields.keys()];
    const here = await file.read(columns, "here");
    expect([...here.keys()]).toEqual(columns);
    expect(here.get("feature_a")).toEqual(Int8Array.from({ length: 1000 }, (_, i) => (i % 11) - 1));
    expect(await file.read(columns, "threads")).toEqual(here);
  });
});
