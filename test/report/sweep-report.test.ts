import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import type { StoredCell } from "../../sim/sweep/results-store.js";
import { sweepReport } from "../../sim/sweep/sweep-report.js";
import type { BacktestReport, BacktestSummary, ExpedScore } from "../../src/report/backtest-report.js";
import { parseRankMetric, sweepFailed } from "../../src/report/sweep-report.js";
import { renderSweepHtml } from "../../src/report/sweep-html.js";
import { axisValue, formatSweepText } from "../../src/report/sweep-text.js";
import { doneCell, ridgeCell } from "./fixtures.js";

const stats = (mean: number, max_drawdown = 0) => ({ mean, std: 0.1, sharpe: mean / 0.1, smart_sharpe: mean / 0.1, max_drawdown, max_drawdown_expeds: 1, calmar: null, autocorrelation: 0, hit_rate: 1, vs_benchmark: null });
/** A summary whose score has mean `score` and `total` (the mean's by default, as over one exped). */
const summary = (score: number, drawdown: number, total = score): BacktestSummary => ({
  expeds: 1,
  entered: 1,
  corr: stats(score),
  aimc: stats(0),
  ncorr: stats(score),
  score: { ...stats(score, drawdown), total },
  fn_corr: null,
  tb_corr: stats(score),
  feature_exposure: null,
  designated_corr: null,
  benchmark_corr: null,
});
const expeds: ExpedScore[] = [{ exped: "exped_0001", n: 10, corr: 0.1, aimc: 0, ncorr: 0.1, score: 0.1, fn_corr: null, tb_corr: null, designated_corr: null, max_exposure: null }];
const benchmark = summary(0.01, 0.5, 0.12);
const report = (score: number, drawdown: number, total = score): BacktestReport => ({
  strategy: "ridge",
  expeds,
  summary: summary(score, drawdown, total),
  refusals: [],
  against: { v1_designated: { expeds, summary: benchmark, refusals: [] } },
  context: { scenario: "s", train_rows: 1, validation_rows: 1, weights: { corr: 1, aimc: 2, ncorr: 1 }, clip: 0.25, top_bottom: 0, rolling_window: 0 },
});
const cells: PlannedCell[] = [0.1, 0.3, 0.2].map((alpha, index) => ridgeCell(index, { alpha }, { alpha }));
const finished: StoredCell[] = [
  doneCell(0, report(0.05, 0.2)),
  doneCell(1, report(0.07, 0.3)),
  { index: 2, status: "failed", outcome: { ok: false, reason: "boom", traceback: "Error: boom\n    at x" } },
];

describe("sweep report", () => {
  it("ranks higher first by a mean, lower first by max drawdown; failed cells are listed apart", () => {
    const byMean = sweepReport(cells, finished, "score.mean", "my sweep.json");
    expect(byMean.rows.map((r) => [r.rank, r.index])).toEqual([[1, 1], [2, 0]]);
    expect(byMean.benchmarks).toEqual([{ on: {}, summary: benchmark, expeds }]);
    expect(byMean.failures).toEqual([{ index: 2, varied: { alpha: 0.2 }, reason: "boom", traceback: "Error: boom\n    at x", reproduce: `basecamp sweep '${resolve("my sweep.json")}' --cell 2` }]);
    expect(sweepReport(cells, finished, "score.max_drawdown", "s.json").rows.map((r) => r.index)).toEqual([0, 1]);
    const text = formatSweepText(byMean);
    expect(text).toContain(`failed cells:\ncell 2 (alpha 0.2): boom\n  reproduce: basecamp sweep '${resolve("my sweep.json")}' --cell 2\n`);
    // From any directory, on the interpreter the sweep was given.
    expect(sweepReport(cells, finished, "score.mean", "/s/grid.json", "venv/bin/python").failures[0].reproduce).toBe(`basecamp sweep /s/grid.json --cell 2 --python ${resolve("venv/bin/python")}`);
  });

  it("shows a ranking metric the statistics leave out in a column of its own after the axes, ref rows too", () => {
    /** The leaderboard's header and rows, split into their columns. */
    const table = (text: string) => text.split("\n").slice(3, 7).map((line) => line.trim().split(/ {2,}/));
    // Cell 0 has the lower mean but the higher total (a longer walk).
    const byTotal: StoredCell[] = [
      doneCell(0, report(0.05, 0.2, 0.6)),
      doneCell(1, report(0.07, 0.3, 0.35)),
      finished[2],
    ];
    const [header, ...rows] = table(formatSweepText(sweepReport(cells, byTotal, "score.total", "s.json")));
    expect(header.slice(0, 6)).toEqual(["rank", "cell", "alpha", "score total", "CORR", "CORR std"]);
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ["1", "0", "0.1", "+0.6000", "+0.0500"],
      ["2", "1", "0.3", "+0.3500", "+0.0700"],
      ["ref", "—", "—", "+0.1200", "+0.0100"],
    ]);
    expect(table(formatSweepText(sweepReport(cells, finished, "corr.hit_rate", "s.json")))[0].slice(3, 5)).toEqual(["CORR hit", "CORR"]);
    // The default metric, score.mean, is the score's first statistic: no column of its own.
    const [byMean] = table(formatSweepText(sweepReport(cells, finished, "score.mean", "s.json")));
    expect(byMean.slice(0, 5)).toEqual(["rank", "cell", "alpha", "CORR", "CORR std"]);
    expect(byMean).toHaveLength(3 + 16);
  });

  it("shows how many expeds each cell entered once one entered fewer than it walked (a cell that entered none has every statistic 0), in the page too", () => {
    const table = (text: string) => text.split("\n").slice(3, 7).map((line) => line.trim().split(/ {2,}/));
    const none = report(0, 0);
    none.summary = { ...none.summary, expeds: 1, entered: 0 };
    const refused: StoredCell[] = [doneCell(0, report(-0.05, 0.2)), doneCell(1, none), finished[2]];
    const [header, ...rows] = table(formatSweepText(sweepReport(cells, refused, "score.mean", "s.json")));
    expect(header.slice(0, 5)).toEqual(["rank", "cell", "alpha", "entered", "CORR"]);
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ["1", "1", "0.3", "0/1"],
      ["2", "0", "0.1", "1/1"],
      ["ref", "—", "—", "1/1"],
    ]);
    expect(renderSweepHtml(sweepReport(cells, refused, "score.mean", "s.json"))).toContain('<th class="name">alpha</th><th>entered</th>');
    // Every cell entered every exped: no such column.
    expect(table(formatSweepText(sweepReport(cells, finished, "score.mean", "s.json")))[0].slice(0, 4)).toEqual(["rank", "cell", "alpha", "CORR"]);
    expect(renderSweepHtml(sweepReport(cells, finished, "score.mean", "s.json"))).not.toContain("<th>entered</th>");
  });

  it("fails (basecamp sweep exits 1) with a failed cell or a broken invariant, and only then", () => {
    const report = sweepReport(cells, finished, "score.mean", "s.json");
    expect(sweepFailed(report)).toBe(true);
    const clean = { ...report, failures: [] };
    expect(sweepFailed(clean)).toBe(false);
    const replay = { index: 0, varied: {}, digest: "d", events: 1, steps: 1, reproduce: "r" };
    expect(sweepFailed({ ...clean, kind: "replay", rows: [], replays: [{ ...replay, violations: [] }] })).toBe(false);
    expect(sweepFailed({ ...clean, kind: "replay", rows: [], replays: [{ ...replay, violations: [{ invariant: "money conserved", step: 3, detail: "x" }] }] })).toBe(true);
  });

  it("--rank-by names what it takes", () => {
    expect(parseRankMetric("aimc.sharpe")).toBe("aimc.sharpe");
    expect(() => parseRankMetric("corr.total")).toThrow(/--rank-by: expected TERM\.STAT .* got 'corr\.total'/);
    expect(() => parseRankMetric("blend")).toThrow(/got 'blend'/);
  });

  it("cuts a long axis value in its middle, and keeps two values that cut alike apart in the page's groups", () => {
    const long = (aggregate: string) => ({ clip: 0.25, note: `${"x".repeat(60)}${aggregate}${"y".repeat(60)}` });
    expect(axisValue("a".repeat(100))).toBe("a".repeat(100));
    const cut = axisValue(JSON.stringify(long("mean")));
    expect(cut).toBe(`{"clip":0.25,"note":"${"x".repeat(29)}…${"y".repeat(47)}"}`);
    expect(axisValue(JSON.stringify(long("median")))).toBe(cut);
    // Two scoring settings whose values cut alike, each with its own v1_designated.
    const scoring = [long("mean"), long("median")];
    const planned: PlannedCell[] = scoring.flatMap((s, i) => [0.1, 0.3].map((alpha, j) => ({ index: 2 * i + j, varied: { scoring: s, alpha }, cell: { ...cells[0].cell, scoring: { clip: 0.25 } } })));
    const done: StoredCell[] = planned.map(({ index }) => doneCell(index, report(0.05 + index / 100, 0.2)));
    const html = renderSweepHtml(sweepReport(planned, done, "score.mean", "s.json"));
    expect(html.match(/<line class="benchmark level s\d"/g)).toEqual(['<line class="benchmark level s0"', '<line class="benchmark level s1"']);
  });
});
