import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/domain/rng.js";
import { TARGET_LEVELS, TARGET_SHARES } from "../../src/data/exped-rows.js";
import { asFloat64, MISSING, rowsByExped, type Frame } from "../../src/domain/frame.js";
import { generateDataset, type Dataset } from "../../src/data/generate.js";
import { fitLinear, predictLinear } from "../../src/data/least-squares.js";
import { readFrameParquet, writeFrameParquet } from "../../src/data/parquet.js";
import { DESIGNATED, TARGET, benchmarkFileName, defaultDatasetSpec, type DatasetSpec } from "../../src/data/schema.js";
import { meanSpearman } from "./spearman.js";

const small: DatasetSpec = { ...defaultDatasetSpec, train_expeds: 30, validation_expeds: 10, rows_per_exped: 100, universe_size: 80 };

let dataset: Dataset;
beforeAll(() => {
  dataset = generateDataset(defaultDatasetSpec, new Rng("basecamp"), 12);
});

const allFrames = (d: Dataset): Frame[] => [d.train, d.validation, ...d.rounds.map((r) => r.frame)];
const linearOn = (names: string[], train: Frame, test: Frame) =>
  predictLinear(
    fitLinear(names.map((f) => asFloat64(train.columns[f])), asFloat64(train.columns[TARGET])),
    names.map((f) => asFloat64(test.columns[f])),
  );

describe("generateDataset: determinism", () => {
  it("gives identical data (and parquet bytes) for the same seed, different data for another", () => {
    const a = generateDataset(small, new Rng(7), 3);
    const b = generateDataset(small, new Rng(7), 3);
    const c = generateDataset(small, new Rng(8), 3);
    expect(b).toEqual(a);
    expect(writeFrameParquet(b.train)).toEqual(writeFrameParquet(a.train));
    expect(c.train.ids).not.toEqual(a.train.ids);
    expect(c.train.columns[TARGET]).not.toEqual(a.train.columns[TARGET]);
    expect(c.rounds[0].frame.columns[c.features[0]]).not.toEqual(a.rounds[0].frame.columns[a.features[0]]);
  });

  it("does not change train, validation or earlier rounds when more rounds are asked for", () => {
    const few = generateDataset(small, new Rng(7), 2);
    const many = generateDataset(small, new Rng(7), 5);
    expect(many.train).toEqual(few.train);
    expect(many.validation).toEqual(few.validation);
    expect(many.benchmarks).toEqual(few.benchmarks);
    expect(many.rounds.slice(0, 2)).toEqual(few.rounds);
    expect(many.rounds).toHaveLength(5);
  });

  it("gives the default dataset it has always given for a seed (every id, value and the benchmark, as JSON)", () => {
    // Pinned: a change to how the generator draws, sorts or formats (a faster sort, a faster
    // hex) must not move a seed's data, or every stored sweep and replay of it.
    const json = JSON.stringify(dataset, (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v));
    expect(createHash("sha256").update(json).digest("hex")).toBe("34a8364eebb06a0bc97109aeef4e4981141020db2075dc9e27bd457e1d26aec0");
  });
});

describe("generateDataset: ids and expeds", () => {
  it("gives every row a 16-hex id, unique across train, validation and every round", () => {
    const ids = allFrames(dataset).flatMap((f) => f.ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(120 * 200 + 30 * 200 + 12 * 200);
  });

  it("labels train, gap, validation, gap, then one exped per round, in string order = time order", () => {
    const labels = (f: Frame) => [...rowsByExped(f).keys()];
    const num = (label: string) => Number(label.slice("exped_".length));
    expect(labels(dataset.train)).toEqual(Array.from({ length: 120 }, (_, i) => `exped_${String(i + 1).padStart(4, "0")}`));
    expect(labels(dataset.validation).map(num)).toEqual(Array.from({ length: 30 }, (_, i) => 129 + i));
    expect(dataset.rounds.map((r) => num(r.exped))).toEqual(Array.from({ length: 12 }, (_, i) => 167 + i));
    const timeline = [...labels(dataset.train), ...labels(dataset.validation), ...dataset.rounds.map((r) => r.exped)];
    expect([...timeline].sort()).toEqual(timeline);
    for (const r of dataset.rounds) {
      expect(new Set(r.frame.exped)).toEqual(new Set([r.exped]));
      expect(r.frame.ids).toHaveLength(200);
    }
    for (const rows of rowsByExped(dataset.train).values()) expect(rows).toHaveLength(200);
  });
});

describe("generateDataset: features", () => {
  it("publishes the named features (train and validation also the target) and keeps the core subset out of them", () => {
    expect(dataset.features).toHaveLength(24);
    for (const f of dataset.features) expect(f).toMatch(/^feature_[a-z]+_[a-z]+$/);
    expect(Object.keys(dataset.train.columns)).toEqual([...dataset.features, TARGET]);
    expect(Object.keys(dataset.validation.columns)).toEqual([...dataset.features, TARGET]);
    expect(Object.keys(dataset.rounds[0].frame.columns)).toEqual(dataset.features);
    expect(new Set(dataset.core_features).size).toBe(10);
    for (const f of dataset.core_features) expect(dataset.features).toContain(f);
  });

  it("bins each feature into quintiles per exped, with missing cells at the sentinel", () => {
    for (const frame of allFrames(dataset)) {
      for (const rows of rowsByExped(frame).values()) {
        for (const f of dataset.features) {
          const counts = [0, 0, 0, 0, 0];
          let missing = 0;
          for (const i of rows) {
            const x = frame.columns[f][i];
            if (x === MISSING) missing++;
            else counts[x]++; // a value outside 0..4 makes counts[x] NaN and fails below
          }
          expect(counts.reduce((a, b) => a + b, 0) + missing).toBe(rows.length);
          for (const c of counts) {
            expect(c).toBeLessThanOrEqual(rows.length / 5);
            expect(c).toBeGreaterThanOrEqual(rows.length / 5 - missing);
          }
        }
      }
    }
  });

  it("makes about missing_share of the cells missing", () => {
    const share = (d: Dataset) => {
      let missing = 0;
      let cells = 0;
      for (const frame of allFrames(d)) {
        for (const f of d.features) {
          for (const x of frame.columns[f]) missing += x === MISSING ? 1 : 0;
          cells += frame.ids.length;
        }
      }
      return missing / cells;
    };
    expect(share(dataset)).toBeCloseTo(0.05, 2);
    expect(share(generateDataset({ ...small, missing_share: 0.2 }, new Rng(1), 2))).toBeCloseTo(0.2, 2);
    expect(share(generateDataset({ ...small, missing_share: 0 }, new Rng(1), 2))).toBe(0);
  });
});

describe("generateDataset: target and benchmark", () => {
  it("levels the target 0/0.25/0.5/0.75/1 in 5/20/50/20/5 % of each exped's rows", () => {
    expect([...TARGET_SHARES]).toEqual([0.05, 0.2, 0.5, 0.2, 0.05]);
    const series: [Frame, Float64Array][] = [
      [dataset.train, asFloat64(dataset.train.columns[TARGET])],
      [dataset.validation, asFloat64(dataset.validation.columns[TARGET])],
      ...dataset.rounds.map((r): [Frame, Float64Array] => [r.frame, r.target]),
    ];
    for (const [frame, target] of series) {
      for (const rows of rowsByExped(frame).values()) {
        const counts = TARGET_LEVELS.map((level) => rows.filter((i) => target[i] === level).length);
        expect(counts).toEqual([10, 40, 100, 40, 10]);
      }
    }
  });

  it("gives every row of every split and round a benchmark strictly inside (0, 1), uniform per exped", () => {
    const pairs: [Frame, Frame][] = [
      [dataset.train, dataset.benchmarks.train],
      [dataset.validation, dataset.benchmarks.validation],
      ...dataset.rounds.map((r): [Frame, Frame] => [r.frame, r.benchmark]),
    ];
    for (const [frame, bench] of pairs) {
      expect(bench.ids).toEqual(frame.ids);
      expect(bench.exped).toEqual(frame.exped);
      expect(Object.keys(bench.columns)).toEqual([DESIGNATED]);
      const b = bench.columns[DESIGNATED];
      for (const x of b) {
        expect(x).toBeGreaterThan(0);
        expect(x).toBeLessThan(1);
      }
      for (const rows of rowsByExped(bench).values()) {
        expect(rows.reduce((s, i) => s + b[i], 0) / rows.length).toBeCloseTo(0.5, 12);
      }
    }
  });

  it("round-trips the benchmark files through parquet with exped, v1_designated and index id", () => {
    expect(benchmarkFileName("bc", "validation")).toBe("bc_validation_benchmark_models.parquet");
    for (const bench of [dataset.benchmarks.train, dataset.benchmarks.validation, dataset.rounds[3].benchmark]) {
      expect(readFrameParquet(writeFrameParquet(bench))).toEqual(bench);
    }
  });

  it("plants a learnable signal: least squares on train beats the benchmark on validation", () => {
    for (const seed of [1, 2, 3]) {
      const d = generateDataset(defaultDatasetSpec, new Rng(seed), 0);
      const y = asFloat64(d.validation.columns[TARGET]);
      const bench = meanSpearman(d.validation, asFloat64(d.benchmarks.validation.columns[DESIGNATED]), y);
      const learned = meanSpearman(d.validation, linearOn(d.features, d.train, d.validation), y);
      expect(bench).toBeGreaterThan(0.02);
      expect(bench).toBeLessThan(0.15);
      expect(learned).toBeGreaterThan(bench);
    }
  });

  it("puts part of the signal in the core features and part outside them", () => {
    const y = asFloat64(dataset.validation.columns[TARGET]);
    const others = dataset.features.filter((f) => !dataset.core_features.includes(f));
    expect(meanSpearman(dataset.validation, linearOn(dataset.core_features, dataset.train, dataset.validation), y)).toBeGreaterThan(0.03);
    expect(meanSpearman(dataset.validation, linearOn(others, dataset.train, dataset.validation), y)).toBeGreaterThan(0.03);
  });

  it("plants nothing when signal is 0", () => {
    const d = generateDataset({ ...defaultDatasetSpec, signal: 0 }, new Rng(1), 0);
    const y = asFloat64(d.validation.columns[TARGET]);
    expect(Math.abs(meanSpearman(d.validation, linearOn(d.features, d.train, d.validation), y))).toBeLessThan(0.02);
  });
});

describe("generateDataset: spec checks", () => {
  it("names the bad field", () => {
    expect(() => generateDataset({ ...small, n_core: 30 }, new Rng(1), 1)).toThrow(/n_core/);
    expect(() => generateDataset({ ...small, rows_per_exped: 3 }, new Rng(1), 1)).toThrow(/rows_per_exped/);
    expect(() => generateDataset({ ...small, missing_share: 1 }, new Rng(1), 1)).toThrow(/missing_share/);
    expect(() => generateDataset(small, new Rng(1), -1)).toThrow(/nRounds/);
    expect(() => generateDataset({ ...small, train_expeds: 9990 }, new Rng(1), 1)).toThrow(/needs 10017 expeds/);
  });

  it("refuses a dataset of more than 2^28 values before drawing any", () => {
    const big = { ...small, train_expeds: 100, validation_expeds: 20, rows_per_exped: 100_000, n_features: 22 };
    expect(() => generateDataset({ ...big, universe_size: 10 }, new Rng(1), 1)).toThrow(
      /^DatasetSpec makes 12000010 rows of 22 features and a target, 276000230 values: at most 268435456 \(2 GiB of float64\); lower rows_per_exped, universe_size, train_expeds, validation_expeds or n_features$/,
    );
    expect(() => generateDataset({ ...small, n_features: 2 ** 27, n_core: 1, rows_per_exped: 5, train_expeds: 1, validation_expeds: 1, universe_size: 5 }, new Rng(1), 0)).toThrow(/values: at most 268435456/);
  });
});
