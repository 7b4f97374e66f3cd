import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { backtest, type BacktestRun } from "../../sim/backtest/backtest.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { loadScenario } from "../../sim/scenario.js";
import { DESIGNATED } from "../../src/data/schema.js";
import type { ExpedScore, StrategyBacktest } from "../../src/report/backtest-report.js";
import { datasetDirScenario } from "../helpers/dataset-dir.js";
import { requires } from "../helpers/requires.js";

/**
 * The report's diagnostics against an independent numpy/scipy implementation of the same
 * definitions (test/backtest/diagnostics_reference.py, run with Debian's /usr/bin/python3), on the
 * default tournament and on a dataset directory, to 1e-12. The reference gets the raw rows each
 * strategy predicted (rebuilt here from the walk's predictions and world) and the settled
 * per-exped terms, and recomputes everything else.
 */
const TOLERANCE = 1e-12;

type Rows = { ids: string[]; prediction: number[]; target: number[]; benchmark: number[]; features: number[][] };

/** Each entered exped's rows and settled terms, as the reference reads them. */
function referenceInput(run: BacktestRun, expeds: ExpedScore[], predictions: { exped: string; ids: string[]; values: Float64Array }[]) {
  const rounds = new Map(run.world.dataset.rounds.map((r) => [r.exped, r] as const));
  const settled = new Map(expeds.map((e) => [e.exped, e] as const));
  return {
    expeds: predictions.map(({ exped, ids, values }): Rows & Pick<ExpedScore, "corr" | "aimc" | "ncorr" | "score"> => {
      const round = rounds.get(exped)!;
      const row = new Map(round.frame.ids.map((id, i) => [id, i] as const));
      const bench = new Map(round.benchmark.ids.map((id, i) => [id, round.benchmark.columns[DESIGNATED][i]] as const));
      const at = ids.map((id) => row.get(id)!);
      const { corr, aimc, ncorr, score } = settled.get(exped)!;
      return {
        ids,
        prediction: [...values],
        target: at.map((r) => round.target[r]),
        benchmark: ids.map((id) => bench.get(id) ?? NaN),
        features: run.world.dataset.features.map((f) => at.map((r) => round.frame.columns[f][r])),
        corr,
        aimc,
        ncorr,
        score,
      };
    }),
  };
}

/** What v1_designated submitted: the live benchmark column on each exped's rows (what benchmark_copier sends). */
function designatedPredictions(run: BacktestRun) {
  return run.world.dataset.rounds.map((round) => {
    const bench = new Map(round.benchmark.ids.map((id, i) => [id, round.benchmark.columns[DESIGNATED][i]] as const));
    return { exped: round.exped, ids: round.frame.ids, values: Float64Array.from(round.frame.ids, (id) => bench.get(id) ?? NaN) };
  });
}

function reference(run: BacktestRun): Record<string, unknown> & { per_exped: Record<string, unknown>[] } {
  const v1 = run.report.against.v1_designated;
  const input = {
    top_bottom: run.report.context.top_bottom,
    features: run.world.dataset.features,
    strategy: referenceInput(run, run.report.expeds, run.predictions),
    benchmark: referenceInput(run, v1.expeds, designatedPredictions(run)),
  };
  const out = execFileSync("/usr/bin/python3", ["test/backtest/diagnostics_reference.py"], { input: JSON.stringify(input), maxBuffer: 1 << 26 });
  return JSON.parse(out.toString());
}

/** Every number of `actual` within TOLERANCE of `expected`'s, strings and nulls equal, key by key. */
function expectClose(actual: unknown, expected: unknown, path: string): void {
  if (typeof expected === "number") {
    expect(typeof actual, path).toBe("number");
    expect(Math.abs((actual as number) - expected), `${path}: ${actual} vs ${expected}`).toBeLessThanOrEqual(TOLERANCE);
  } else if (Array.isArray(expected)) {
    expect((actual as unknown[]).length, path).toBe(expected.length);
    expected.forEach((e, i) => expectClose((actual as unknown[])[i], e, `${path}[${i}]`));
  } else if (expected !== null && typeof expected === "object") {
    for (const [k, e] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[k], e, `${path}.${k}`);
  } else expect(actual, path).toBe(expected);
}

function check(run: BacktestRun): void {
  const ref = reference(run);
  const { summary, expeds } = run.report as StrategyBacktest;
  const entered = expeds.filter((e) => e.corr !== null);
  expect(entered.length).toBeGreaterThan(3);
  entered.forEach((e, k) => {
    const r = ref.per_exped[k] as { fn_corr: number; tb_corr: number; designated_corr: number; exposures: number[] };
    expectClose(e.fn_corr, r.fn_corr, `${e.exped}.fn_corr`);
    expectClose(e.tb_corr, r.tb_corr, `${e.exped}.tb_corr`);
    expectClose(e.designated_corr, r.designated_corr, `${e.exped}.designated_corr`);
    expectClose(e.max_exposure?.value, Math.max(...r.exposures), `${e.exped}.max_exposure`);
  });
  for (const [key, stats] of Object.entries(ref.series as Record<string, unknown>)) expectClose(summary[key as "corr"], stats, key);
  expectClose(summary.designated_corr, ref.designated_corr, "designated_corr");
  expectClose(summary.feature_exposure, ref.feature_exposure, "feature_exposure");
}

requires("python", "scipy").describe("the report's diagnostics against numpy", () => {
  it("agree on the default tournament", async () => {
    const run = await backtest({ strategy: "ridge", scenario: loadScenario(scenarioFile("default-tournament")), scenarioName: "default-tournament" });
    expect(run.report.expeds).toHaveLength(30);
    check(run);
  });

  it("agree on a dataset directory", async () => {
    const file = datasetDirScenario(mkdtempSync(join(tmpdir(), "diagnostics-numpy-dir-")));
    const run = await backtest({ strategy: "ridge", scenario: loadScenario(file), scenarioName: "real-data", topBottom: 5 });
    expect(run.report.context.top_bottom).toBe(5);
    check(run);
  });
});
