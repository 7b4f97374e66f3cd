import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type OfflinePage, openOffline } from "../helpers/offline-page.js";
import { requires } from "../helpers/requires.js";
import { renderBacktestHtml } from "../../src/report/backtest-html.js";
import { report } from "./fixtures.js";

const EVIL = "<script>alert(1)</script>";

requires("chromium").describe("renderBacktestHtml in Chromium", () => {
  let opened: OfflinePage;
  let page: Page;

  beforeAll(async () => {
    const r = report(EVIL);
    r.against[`"><img src=x onerror=alert(2)>`] = r.against.momentum;
    r.refusals[0].reason = `<img src="https://example.invalid/x.png"> refused`;
    opened = await openOffline(renderBacktestHtml(r));
    page = opened.page;
  });

  afterAll(() => opened?.close());

  it("asks the network for nothing", () => {
    expect(opened.requested).toEqual([]);
  });

  it("runs nothing from a strategy's name or a refusal's reason, and shows them as text", async () => {
    expect(opened.dialogs).toEqual([]);
    expect(await page.locator("script").count()).toBe(0);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("h1").textContent()).toBe(`Backtest: ${EVIL}`);
    expect(await page.title()).toBe(`Backtest: ${EVIL}`);
  });

  it("draws one cumulative line per strategy and one CORR bar per exped, with a benchmark tick where v1_designated has a CORR", async () => {
    expect(await page.locator("#cumulative-chart polyline.series").count()).toBe(4);
    expect(await page.locator("#cumulative-chart polyline.series.under-test").getAttribute("data-strategy")).toBe(EVIL);
    expect(await page.locator("#corr-bars rect.bar").count()).toBe(12);
    expect(await page.locator("#corr-bars rect.bar.not-entered").count()).toBe(1);
    expect(await page.locator("#corr-bars rect.bar.neg").count()).toBe(1);
    expect(await page.locator("#corr-bars line.benchmark").count()).toBe(12);
    const box = await page.locator("#cumulative-chart").boundingBox();
    expect(box?.width).toBeGreaterThan(500);
  });

  it("has one summary row per strategy and one exped row per exped", async () => {
    const names = await page.locator("#summary-table tbody tr th").allTextContents();
    expect(names).toEqual([EVIL, "v1_designated", "momentum", `"><img src=x onerror=alert(2)>`]);
    expect(await page.locator("#summary-table tbody tr").first().locator("td").allTextContents()).toEqual([
      "+0.0227", "+0.0114", "+0.0182", "+0.0227", "+0.0136", "+0.0341", "+0.2500", "+0.5000", "+0.5000", "+0.1235", "+0.0988",
    ]);
    expect(await page.locator("#expeds-table tbody tr").count()).toBe(12);
    expect(await page.locator("#expeds-table tbody tr.not-entered td").allTextContents()).toEqual([...Array(9).fill("—"), ""]);
    expect(await page.locator("#refusals li").textContent()).toBe(`exped_0107: <img src="https://example.invalid/x.png"> refused`);
  });

  it("shows each diagnostic chart: the four terms' bars, the drawdown, the rolling mean and Sharpe, the exposure", async () => {
    for (const id of ["corr-bars", "aimc-bars", "ncorr-bars", "score-bars", "drawdown-chart", "rolling-mean-chart", "rolling-sharpe-chart", "exposure-chart"]) {
      const chart = page.locator(`#${id}`);
      expect(await chart.isVisible(), id).toBe(true);
      expect((await chart.boundingBox())?.width, id).toBeGreaterThan(500);
    }
    for (const id of ["drawdown-chart", "rolling-mean-chart", "rolling-sharpe-chart"]) expect(await page.locator(`#${id} polyline.series`).count(), id).toBe(4);
    // Every strategy's drawdown is 0 or below, and the deepest point is its max DD.
    const lowest = await page.locator("#drawdown-chart polyline.series.under-test").getAttribute("points");
    expect(lowest?.split(" ").length).toBe(11);
    for (const id of ["aimc-bars", "ncorr-bars", "score-bars"]) expect(await page.locator(`#${id} line.benchmark`).count(), id).toBe(12);
    expect(await page.locator("#exposure-chart rect.bar.exposure").count()).toBe(10);
    expect(await page.locator("#exposure-chart line.pooled").count()).toBe(10);
    expect(await page.locator("#series-table tr.delta").count()).toBe(6 * 3);
  });

  /** Set BACKTEST_HTML_SCREENSHOT=/some/file.png to keep the picture and look at the page. */
  it("takes a screenshot of the whole page", async () => {
    const png = process.env.BACKTEST_HTML_SCREENSHOT ?? join(opened.dir, "report.png");
    expect((await page.screenshot({ path: png, fullPage: true })).length).toBeGreaterThan(10_000);
  });
});
