import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { backtest } from "../../sim/backtest/backtest.js";
import { scoredFrame } from "../../sim/backtest/scored-frame.js";
import { scoreFile } from "../../src/commands/score.js";
import { writeFrameCsv } from "../../src/data/csv.js";
import { writeFrameParquet } from "../../src/data/parquet.js";
import { loadScenario } from "../../sim/scenario.js";
import { datasetDirScenario } from "../helpers/dataset-dir.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { requires } from "../helpers/requires.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-backtest-"));
const scenario = smallScenario({ dataset: { n_features: 12, n_core: 4, train_expeds: 12, validation_expeds: 6, rows_per_exped: 60, gap_expeds: 2, universe_size: 40 } });

describe("backtest", () => {
  it("walks every validation exped in order and reports the strategy beside v1_designated and the --against strategies", async () => {
    const { report } = await backtest({ strategy: "ridge", against: ["random", "noisy_oracle"], scenario, scenarioName: "small" });
    expect(report.strategy).toBe("ridge");
    expect(Object.keys(report.against)).toEqual(["v1_designated", "random", "noisy_oracle"]);
    const expeds = report.expeds.map((e) => e.exped);
    expect(expeds).toHaveLength(6);
    expect(expeds).toEqual([...expeds].sort());
    for (const e of report.expeds) {
      expect(e.n).toBe(60);
      expect(Object.keys(e)).toEqual(["exped", "n", "corr", "aimc", "ncorr", "score", "fn_corr", "tb_corr", "designated_corr", "max_exposure"]);
    }
    expect(report.summary.entered).toBe(6);
    expect(report.summary.score.total).toBeCloseTo(report.expeds.reduce((s, e) => s + e.score, 0), 15);
    // The designated benchmark scores exactly zero AIMC in every exped, and correlates perfectly with itself.
    expect(report.against.v1_designated.expeds.map((e) => e.aimc)).toEqual(expeds.map(() => 0));
    expect(report.against.v1_designated.summary.benchmark_corr).toBe(1);
    // The prediction-level corr with the benchmark is 1 for the benchmark itself, and its deltas against itself are 0.
    expect(report.against.v1_designated.summary.designated_corr).toBeCloseTo(1, 14);
    expect(report.against.v1_designated.summary.score.vs_benchmark).toEqual({ mean: 0, std: 0, sharpe: 0 });
    expect(report.summary.corr.vs_benchmark?.mean).toBe(report.summary.corr.mean - report.against.v1_designated.summary.corr.mean);
    // The oracle sees the target through noise: it beats random.
    expect(report.against.noisy_oracle.summary.corr.mean).toBeGreaterThan(report.against.random.summary.corr.mean);
    expect(report.context).toMatchObject({ scenario: "small", train_rows: 12 * 60, validation_rows: 6 * 60, clip: 0.25 });
  });

  it("gives the same per-exped numbers as `basecamp score` on the same predictions, to 1e-12", async () => {
    const run = await backtest({ strategy: "ridge", scenario, scenarioName: "small" });
    const frame = scoredFrame(run.predictions, run.world);
    const core = run.world.dataset.core_features;
    for (const [name, bytes] of [["walk.csv", writeFrameCsv(frame)], ["walk.parquet", writeFrameParquet(frame)]] as const) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const scored = await scoreFile(path, { core });
      expect(scored.expeds.map((e) => e.exped)).toEqual(run.report.expeds.map((e) => e.exped));
      scored.expeds.forEach((s, i) => {
        const b = run.report.expeds[i];
        expect(s.n).toBe(b.n);
        expect(Math.abs(s.corr - (b.corr as number))).toBeLessThanOrEqual(1e-12);
        expect(Math.abs((s.aimc as number) - (b.aimc as number))).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(s.ncorr - (b.ncorr as number))).toBeLessThanOrEqual(1e-12);
      });
    }
  });

  it("is deterministic: the same scenario gives the same report", async () => {
    const a = await backtest({ strategy: "random", against: ["ridge"], scenario, scenarioName: "small" });
    const b = await backtest({ strategy: "random", against: ["ridge"], scenario, scenarioName: "small" });
    expect(JSON.stringify(b.report)).toBe(JSON.stringify(a.report));
  });

  it("plays a TypeScript strategy module by path", async () => {
    const { report } = await backtest({ strategy: resolve("examples/strategy.ts"), params: { flip: true }, scenario, scenarioName: "small" });
    expect(report.strategy).toBe("strategy.ts");
    expect(report.summary.entered).toBe(6);
    expect(report.refusals).toEqual([]);
  });

  it("scores a predictions file as the strategy; an exped it does not cover is refused with the service's text and counts 0", async () => {
    const ridge = await backtest({ strategy: "ridge", scenario, scenarioName: "small" });
    const [first, ...rest] = ridge.predictions;
    const rows = [first, ...rest].flatMap((p, k) => p.ids.map((id, i) => `${id},${p.values[i]}`).slice(0, k === 1 ? 30 : undefined));
    const path = join(dir, "ridge-predictions.csv");
    writeFileSync(path, `id,prediction\n${rows.join("\n")}\n`);
    const { report } = await backtest({ strategy: path, scenario, scenarioName: "small" });
    expect(report.strategy).toBe("ridge-predictions.csv");
    const second = report.expeds[1];
    expect(second).toEqual({ exped: second.exped, n: 0, corr: null, aimc: null, ncorr: null, score: 0, fn_corr: null, tb_corr: null, designated_corr: null, max_exposure: null });
    expect(report.refusals).toEqual([{ exped: second.exped, reason: "refused 400 missing_instruments: Missing predictions for 30 instruments." }]);
    report.expeds.forEach((e, i) => {
      if (i !== 1) expect(e).toEqual(ridge.report.expeds[i]);
    });
    expect(report.summary.entered).toBe(5);
  });
});

requires("python").describe("backtest on a dataset directory in the service's layout", () => {
  it("walks the directory's validation expeds (the ones the replay does not hold out) and scores the Python example", async () => {
    const file = datasetDirScenario(mkdtempSync(join(tmpdir(), "basecamp-backtest-dir-")));
    const { report } = await backtest({ strategy: resolve("examples/agent.py"), against: ["ridge"], scenario: loadScenario(file), scenarioName: "real-data" });
    expect(report.expeds.map((e) => e.exped)).toEqual(["exped_0012", "exped_0013", "exped_0014", "exped_0015", "exped_0016", "exped_0017"]);
    expect(report.context).toMatchObject({ train_rows: 10 * 40, validation_rows: 6 * 40 });
    expect(report.summary.entered).toBe(6);
    expect(report.against.v1_designated.expeds.every((e) => e.aimc === 0)).toBe(true);
    expect(report.summary.corr.mean).toBeGreaterThan(0);
  });
});
