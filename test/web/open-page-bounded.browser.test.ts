import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { CHROMIUM } from "../helpers/machine.js";
import { requires } from "../helpers/requires.js";
import { ANN, csvUpload, eventServer, newModel, postForm, PRACTICE_UPLOAD, splitIds, spread } from "../http/event-server.js";
import { ORGANISER, type TestServer } from "../http/server.js";

/** Rows a live list keeps (src/web/common.js MAX_ROWS) and uploads a participant's page keeps (participant.js MAX_UPLOADS). */
const MAX_ROWS = 200;
const MAX_UPLOADS = 100;

const { describe, it } = requires("chromium");

describe("a page left open in Chromium while the event runs on", () => {
  let s: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    s = await eventServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  });

  // The server is closed with the file's others (test/http/server.ts).
  afterAll(async () => {
    await browser?.close();
  });

  const signIn = async (path: string, key: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(s.url + path);
    await page.fill("#key", key);
    await page.click("#signin button[type=submit]");
    await page.waitForSelector("#live-state:text('live')");
    return page;
  };

  it("keeps its lists bounded, however many uploads, runs, events and refusals it is told of", async () => {
    const participant = await signIn("/", ANN);
    const organiser = await signIn("/console", ORGANISER);
    await participant.click("[data-tab=uploads]");
    const ids = await splitIds(s, ANN, "validation");
    let last = "";
    for (let k = 1; k <= MAX_UPLOADS + 10; k++) {
      const a = await postForm(s, PRACTICE_UPLOAD, ANN, csvUpload(await newModel(s, ANN, `m${k}`), ids, spread(ids, k)));
      expect(a.status).toBe(202);
      last = a.json.upload_id as string;
    }
    // Past the scoring time every run is finalised: three events per upload, more than the console keeps.
    expect((await s.advance({ seconds: 120 })).status).toBe(200);
    await participant.waitForSelector(`#runs tr:has-text("${last}"):has-text("finalised")`);
    const refused = MAX_ROWS + 20;
    for (let i = 0; i < refused; i++) expect((await s.get(`/api/v1/diagnostics/runs/upl_gone${i}`, ANN)).status).toBe(404);
    const lastRefusal = `upl_gone${refused - 1} `;
    await participant.waitForSelector(`#refusals li:has-text("${lastRefusal}")`);
    await organiser.waitForSelector(`#feed li:has-text("${lastRefusal}")`);
    expect(await participant.locator("#runs tbody tr").count()).toBe(MAX_UPLOADS);
    expect(await participant.locator("#refusals li").count()).toBe(MAX_ROWS);
    expect(await organiser.locator("#feed li").count()).toBe(MAX_ROWS);
    // The boards draw their top rows only.
    await participant.click("[data-tab=boards]");
    await participant.waitForSelector(`#boards :text('top 50 of ${MAX_UPLOADS + 10}')`);
    const rowsPerBoard = await participant.locator("#boards table").evaluateAll((tables) => tables.map((t) => t.querySelectorAll("tbody tr").length));
    expect(Math.max(...rowsPerBoard)).toBe(50);
  }, 120_000);
});
