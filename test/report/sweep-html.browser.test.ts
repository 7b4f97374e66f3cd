import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PlannedCell } from "../../sim/sweep/cells.js";
import type { StoredCell } from "../../sim/sweep/results-store.js";
import { sweepReport } from "../../sim/sweep/sweep-report.js";
import type { BacktestReport, StrategyBacktest } from "../../src/report/backtest-report.js";
import { renderSweepHtml } from "../../src/report/sweep-html.js";
import type { RankMetric } from "../../src/report/sweep-report.js";
import { type OfflinePage, openOffline } from "../helpers/offline-page.js";
import { requires } from "../helpers/requires.js";
import { backtestOf, doneCell, EXPEDS, report, ridgeCell } from "./fixtures.js";

const EVIL = "<script>alert(1)</script>";
const ALPHAS = [0.1, 1, 10, 100, 1000];
const SEEDS = [1, 2];

/**
 * A backtest whose every exped has CORR `corr`, beside v1_designated at `bench` on every exped: a
 * walk of `n` expeds, exped_0101 … unless `calendar` renames them.
 */
function cellReport(corr: number, bench: number, n = 12, calendar = (exped: string) => exped): BacktestReport {
  const walk = (c: number): StrategyBacktest => {
    const b = backtestOf(Array(n).fill(c));
    return { ...b, expeds: b.expeds.map((e) => ({ ...e, exped: calendar(e.exped) })) };
  };
  return { ...report("ridge"), ...walk(corr), against: { v1_designated: walk(bench) } };
}

/** The page of a sweep's report (`cells`, `finished`, ranked by `rankBy`), opened offline in Chromium before the block's tests and closed after them. */
function useSweepPage(file: string, rankBy: RankMetric, cells: PlannedCell[], finished: StoredCell[]): () => OfflinePage {
  let opened: OfflinePage | undefined;
  beforeAll(async () => {
    opened = await openOffline(renderSweepHtml(sweepReport(cells, finished, rankBy, file)));
  });
  afterAll(() => opened?.close());
  return () => {
    if (!opened) throw new Error("the sweep page did not open");
    return opened;
  };
}

requires("chromium").describe("renderSweepHtml in Chromium", () => {
  // Ten cells (five penalties × two seeds) and one that failed. Seed 2's cells score best, a
  // higher penalty better, and seed 2's v1_designated (0.02 an exped) differs from seed 1's (0.01).
  const cells: PlannedCell[] = [];
  const finished: StoredCell[] = [];
  ALPHAS.forEach((alpha, a) =>
    SEEDS.forEach((seed) => {
      const index = cells.length;
      cells.push(ridgeCell(index, { alpha, seed }, { alpha }, "s", seed));
      finished.push(doneCell(index, cellReport(0.001 * (a + 1) + 0.01 * (seed - 1), 0.01 * seed)));
    }),
  );
  cells.push(ridgeCell(10, { alpha: 3, seed: 1 }, { alpha: 3 }, "s", 1));
  finished.push({ index: 10, status: "failed", outcome: { ok: false, reason: `<img src="https://example.invalid/x.png"> ${EVIL}`, traceback: `Traceback\n  ${EVIL}` } });
  const opened = useSweepPage(`/sweeps/${EVIL}.json`, "score.mean", cells, finished);
  const page = () => opened().page;

  it("asks the network for nothing and runs nothing from the sweep's name or a failure's reason", async () => {
    expect(opened().requested).toEqual([]);
    expect(opened().dialogs).toEqual([]);
    expect(await page().locator("script").count()).toBe(0);
    expect(await page().locator("img").count()).toBe(0);
    expect(await page().locator("h1").textContent()).toBe(`Sweep: /sweeps/${EVIL}.json`);
  });

  it("ranks the cells by the metric, best first, with a v1_designated row for each seed", async () => {
    expect(await page().locator(".context").textContent()).toBe("11 of 11 cells finished, 1 failed · ranked by score.mean");
    const rows = page().locator("table tbody tr");
    expect(await rows.count()).toBe(12);
    const firsts = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 4).map((td) => td.textContent)));
    // Best: alpha 1000 on seed 2 (cell 9), then alpha 100 on seed 2 (cell 7).
    expect(firsts.slice(0, 2)).toEqual([
      ["1", "9", "1000", "2"],
      ["2", "7", "100", "2"],
    ]);
    expect(firsts.slice(10)).toEqual([
      ["ref", "—", "—", "1"],
      ["ref", "—", "—", "2"],
    ]);
    // score.mean is among the statistics shown: no column of its own.
    expect(await page().locator(".rank-by").count()).toBe(0);
    expect(await page().locator("thead tr:last-child th").count()).toBe(2 + 2 + 16);
  });

  it("plots the metric against the penalty on a log axis, one dot per cell", async () => {
    const chart = page().locator("#param-alpha");
    expect(await chart.isVisible()).toBe(true);
    expect((await chart.boundingBox())?.width).toBeGreaterThan(500);
    expect(await chart.locator("circle.dot").count()).toBe(10);
    expect(await chart.locator("text.axis-title").allTextContents()).toEqual(["score.mean", "alpha (log scale)"]);
    // One tick a decade, 0.1 to 1000; dots left to right in penalty order.
    expect(await chart.locator("text.tick").allTextContents()).toEqual(expect.arrayContaining(["0.1", "1", "10", "100", "1000"]));
    const xs = await chart.locator("circle.dot").evaluateAll((dots) => dots.map((d) => [Number(d.getAttribute("cx")), d.querySelector("title")?.textContent]));
    const byCell = new Map(xs.map(([x, label]) => [Number(/cell (\d+)/.exec(String(label))?.[1]), x as number]));
    for (let a = 1; a < ALPHAS.length; a++) expect(byCell.get(2 * a)).toBeGreaterThan(byCell.get(2 * (a - 1)) as number);
  });

  it("colours the dots by seed, each seed's v1_designated level dashed in its colour", async () => {
    const chart = page().locator("#param-alpha");
    // Seed 2 ranks first, so it takes the first colour.
    expect(await chart.locator("circle.dot.s0 title").allTextContents()).toEqual(["cell 9: +0.0150 (seed 2)", "cell 7: +0.0140 (seed 2)", "cell 5: +0.0130 (seed 2)", "cell 3: +0.0120 (seed 2)", "cell 1: +0.0110 (seed 2)"]);
    expect(await chart.locator("circle.dot.s1").count()).toBe(5);
    expect(await chart.locator("line.benchmark title").allTextContents()).toEqual(["v1_designated (seed 2): +0.0200", "v1_designated (seed 1): +0.0100"]);
    const paint = (selector: string) => chart.locator(selector).first().evaluate((e) => ({ fill: getComputedStyle(e).fill, stroke: getComputedStyle(e).stroke }));
    const [dot0, dot1, level0, level1] = await Promise.all(["circle.dot.s0", "circle.dot.s1", "line.benchmark.s0", "line.benchmark.s1"].map(paint));
    expect(dot0.fill).not.toBe(dot1.fill);
    expect(level0.stroke).toBe(dot0.fill);
    expect(level1.stroke).toBe(dot1.fill);
    // The seed 2 level sits above every seed 2 dot (0.02 against at most 0.015).
    const level = Number(await chart.locator("line.benchmark.s0").getAttribute("y1"));
    for (const cy of await chart.locator("circle.dot.s0").evaluateAll((ds) => ds.map((d) => Number(d.getAttribute("cy"))))) expect(cy).toBeGreaterThan(level);
    expect(await page().locator("figure:has(#param-alpha) ul.legend li").allTextContents()).toEqual(["seed 2", "seed 1"]);
  });

  it("draws the top five cells' cumulative score beside v1_designated on the top cell's seed", async () => {
    const lines = page().locator("#cumulative-chart polyline.series");
    expect(await lines.count()).toBe(6);
    expect(await lines.evaluateAll((ls) => ls.map((l) => l.getAttribute("data-strategy")))).toEqual([
      "#1 cell 9",
      "#2 cell 7",
      "#3 cell 5",
      "#4 cell 3",
      "#5 cell 1",
      "v1_designated (seed 2)",
    ]);
    // Seed 2's v1_designated scores 0.02 an exped: 0.24 over the twelve.
    expect(await page().locator("ul.legend li").last().textContent()).toBe("v1_designated (seed 2) +0.2400");
    // Every line walks the same expeds: the places are named by them.
    expect(await page().locator("#cumulative-chart text.tick[transform]").allTextContents()).toEqual(EXPEDS);
  });

  it("lists the failed cell with its reason, traceback and reproducing command, as text", async () => {
    const failed = page().locator("h2:has-text('Failed cells') + ul li");
    expect(await failed.count()).toBe(1);
    expect(await failed.locator("code").textContent()).toBe(`basecamp sweep '/sweeps/${EVIL}.json' --cell 10`);
    expect(await failed.locator("pre").textContent()).toBe(`Traceback\n  ${EVIL}`);
    expect(await failed.textContent()).toContain(`cell 10: <img src="https://example.invalid/x.png"> ${EVIL}`);
  });

  /** Set SWEEP_HTML_SCREENSHOT=/some/file.png to keep the picture and look at the page. */
  it("takes a screenshot of the whole page", async () => {
    const png = process.env.SWEEP_HTML_SCREENSHOT ?? join(opened().dir, "sweep.png");
    expect((await page().screenshot({ path: png, fullPage: true })).length).toBeGreaterThan(10_000);
  });
});

/** The points of a polyline, [x, y] in the chart's pixels. */
const pointsOf = (points: string | null): number[][] => (points ?? "").split(" ").map((p) => p.split(",").map(Number));

requires("chromium").describe("renderSweepHtml in Chromium: ranked by score.total over two calendars", () => {
  // Scenario a walks 12 expeds (exped_0101 …), scenario b 8 others (exped_0201 …) at a higher
  // score an exped: by total a's best two cells lead b's, though b's best has the second mean.
  const cells: PlannedCell[] = [];
  const finished: StoredCell[] = [];
  for (const scenario of ["a", "b"])
    for (const alpha of [1, 2, 3]) {
      const index = cells.length;
      cells.push(ridgeCell(index, { scenario, alpha }, { alpha }, scenario));
      finished.push(doneCell(index, scenario === "a" ? cellReport(0.0025 * alpha, 0.001) : cellReport(0.004 + 0.001 * alpha, 0.002, 8, (e) => e.replace("exped_01", "exped_02"))));
    }
  const opened = useSweepPage("/sweeps/calendars.json", "score.total", cells, finished);
  const page = () => opened().page;

  it("shows the score's total, which the statistics leave out, after the axes: cells in its order, then the ref rows", async () => {
    expect(await page().locator("thead tr.groups th").allTextContents()).toEqual(["", "score", "CORR", "AIMC", "NCORR", "score"]);
    expect((await page().locator("thead tr:last-child th").allTextContents()).slice(0, 6)).toEqual(["rank", "cell", "scenario", "alpha", "total", "mean"]);
    const firsts = await page().locator("table tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(0, 5).map((td) => td.textContent)));
    expect(firsts).toEqual([
      ["1", "2", "a", "3", "+0.0900"],
      ["2", "1", "a", "2", "+0.0600"],
      ["3", "5", "b", "3", "+0.0560"],
      ["4", "4", "b", "2", "+0.0480"],
      ["5", "3", "b", "1", "+0.0400"],
      ["6", "0", "a", "1", "+0.0300"],
      ["ref", "—", "a", "—", "+0.0120"],
      ["ref", "—", "b", "—", "+0.0160"],
    ]);
  });

  it("draws each top cell's cumulative score over its own expeds, rising to its total, and v1_designated's over its own", async () => {
    const chart = page().locator("#cumulative-chart");
    const lines = chart.locator("polyline.series");
    expect(await lines.evaluateAll((ls) => ls.map((l) => l.getAttribute("data-strategy")))).toEqual(["#1 cell 2", "#2 cell 1", "#3 cell 5", "#4 cell 4", "#5 cell 3", "v1_designated (scenario a)"]);
    // The lines walk different expeds: each exped is placed by its place in its own walk.
    expect(await chart.locator("text.tick[transform]").allTextContents()).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
    const drawn = (await lines.evaluateAll((ls) => ls.map((l) => l.getAttribute("points")))).map(pointsOf);
    expect(drawn.map((points) => points.length)).toEqual([12, 12, 8, 8, 8, 12]);
    // The y of a value, from the axis's ticks (+0.0000 … at their y).
    const ticks = await chart.locator("text.tick:not([transform])").evaluateAll((ts) => ts.map((t) => [Number(t.textContent), Number(t.getAttribute("y"))]));
    const [[v0, y0], [v1, y1]] = [ticks[0], ticks[ticks.length - 1]];
    const valueAt = (y: number) => v0 + ((y - y0) * (v1 - v0)) / (y1 - y0);
    const totals = [0.09, 0.06, 0.056, 0.048, 0.04, 0.012];
    drawn.forEach((points, i) => {
      expect(points[0][0]).toBe(drawn[0][0][0]);
      // Rising exped by exped (up the page), not flat: every exped scores above 0.
      for (let j = 1; j < points.length; j++) expect(points[j][1]).toBeLessThan(points[j - 1][1]);
      expect(valueAt(points[points.length - 1][1])).toBeCloseTo(totals[i], 3);
    });
    expect(await lines.locator("title").allTextContents()).toEqual(["#1 cell 2: +0.0900", "#2 cell 1: +0.0600", "#3 cell 5: +0.0560", "#4 cell 4: +0.0480", "#5 cell 3: +0.0400", "v1_designated (scenario a): +0.0120"]);
  });
});
