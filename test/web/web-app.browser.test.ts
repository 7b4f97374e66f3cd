import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { startServer, type RunningServer } from "../../src/commands/serve.js";
import { readFrameParquet } from "../../src/data/parquet.js";
import { predictionsCsv, samplePkl, samplePklSha256 } from "../../sim/agents/event-upload.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { loadScenario } from "../../sim/scenario.js";
import { CHROMIUM } from "../helpers/machine.js";
import { requires } from "../helpers/requires.js";

const ATLAS = "key-atlas-0000";
const ORGANISER = "organiser-event-0001";
const EVIL = "<img src=x onerror=alert(1)>";
/** Where the views' screenshots go when asked (`BASECAMP_WEB_SCREENSHOTS=docs`). */
const SHOTS = process.env.BASECAMP_WEB_SCREENSHOTS;

const { describe, it } = requires("chromium");

describe("the web app in Chromium, over a served default event", () => {
  let server: RunningServer;
  let browser: Browser;
  let participant: Page;
  let organiser: Page;
  const dialogs: string[] = [];
  const offOrigin: string[] = [];
  const consoleErrors: string[] = [];

  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      headers: { "X-API-Key": key, ...(body instanceof FormData || body === undefined ? {} : { "content-type": "application/json" }) },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
  };

  const upload = (path: string, model: string, ids: string[]) => {
    const form = new FormData();
    form.set("model_id", model);
    form.set("predictions", new Blob([predictionsCsv(ids, ids.map((_, i) => (i + 0.5) / ids.length)) as Uint8Array<ArrayBuffer>]), "p.csv");
    form.set("model_pkl", new Blob([samplePkl as Uint8Array<ArrayBuffer>]), "predict.pkl");
    form.set("model_pkl_sha256", samplePklSha256);
    form.set("model_pkl_python_version", "3.11");
    return api("POST", path, ATLAS, form);
  };

  const newPage = async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url)) offOrigin.push(r.url());
    });
    return page;
  };

  const signIn = async (page: Page, path: string, key: string) => {
    await page.goto(server.url + path);
    await page.fill("#key", key);
    await page.click("#signin button[type=submit]");
  };

  beforeAll(async () => {
    // A realtime clock, so the organiser can pause it; paused, nothing moves but the advances.
    server = await startServer({ scenario: loadScenario(scenarioFile("default-event")), port: 0, host: "127.0.0.1", clock: "realtime", speed: 1, log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
    participant = await newPage();
    organiser = await newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("serves its pages with a strict CSP and no inline script or style", async () => {
    for (const path of ["/", "/console", "/web/common.js", "/web/style.css"]) {
      const res = await fetch(server.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(res.headers.get("content-security-policy")).not.toContain("unsafe-inline");
      await res.arrayBuffer();
    }
    const html = await (await fetch(server.url + "/")).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/<style|style=/);
    expect((await fetch(server.url + "/web/nothing.js")).status).toBe(404);
  });

  it("refuses the console to a participant key with the API's 403", async () => {
    const page = await newPage();
    await signIn(page, "/console", ATLAS);
    await page.waitForSelector("#signin-error:text('403 organiser_key_required')");
    expect(await page.evaluate(() => document.body.classList.contains("signed-in"))).toBe(false);
    await page.close();
  });

  it("signs both in: the participant sees the build phase and its pool, the organiser the clock", async () => {
    await signIn(participant, "/", ATLAS);
    await participant.waitForSelector("#phase:text('build')");
    expect(await participant.textContent("#uploads-remaining")).toBe("12");
    expect(await participant.textContent("#who")).toContain("atlas");
    await participant.waitForSelector("#live-state:text('live')");
    await signIn(organiser, "/console", ORGANISER);
    await organiser.waitForSelector("#phase:text('build')");
    await organiser.waitForSelector("#live-state:text('live')");
    expect(await organiser.textContent("#clock-mode")).toBe("realtime ×1");
    // The key is in the tab's session, never in a URL.
    expect(participant.url()).not.toContain(ATLAS);
    expect(await participant.evaluate(() => sessionStorage.getItem("basecamp.participant.key"))).toBe(ATLAS);
  });

  it("pauses and advances the clock from the console; both pages show the change", async () => {
    await organiser.click("#pause");
    await organiser.waitForSelector("#paused:text('paused')");
    await participant.waitForSelector("#paused:text('paused')");
    await organiser.click("#next-phase");
    await organiser.waitForSelector("#phase:text('round_1')");
    await participant.waitForSelector("#phase:text('round_1')");
    await organiser.waitForSelector("#feed li:text('round.opened')");
  });

  it("shows an upload, its run and the board as they change, without reloading", async () => {
    await participant.click("[data-tab=uploads]");
    const created = await api("POST", "/api/v1/models", ATLAS, { name: "webmodel" });
    expect(created.status).toBe(201);
    const model = created.json().name as string;
    const live = await api("GET", "/api/v1/futures/data/live", ATLAS);
    expect(live.status).toBe(200);
    const ids = readFrameParquet(live.bytes).ids;
    expect((await upload("/api/v1/event/predictions/upload", model, ids)).status).toBe(202);
    await participant.waitForSelector(`#runs td:text("${model}")`);
    await participant.waitForSelector("#uploads-remaining:text('11')");
    // A refused upload (an unknown model, named with markup) is listed as text, never run.
    expect((await upload("/api/v1/event/predictions/upload", EVIL, ids)).status).toBe(404);
    await participant.waitForSelector("#refusals li.refusal");
    expect(await participant.textContent("#refusals")).toContain(EVIL);
    await organiser.waitForSelector("#feed li.refusal");
    // The practice lane too, then past the scoring time: both runs finalise, the practice board ranks the model.
    const train = await api("GET", "/api/v1/futures/data/validation", ATLAS);
    const practiceIds = readFrameParquet(train.bytes).ids;
    expect((await upload("/api/v1/diagnostics/upload", model, practiceIds)).status).toBe(202);
    await organiser.fill("#advance-seconds", "120");
    await organiser.click("#advance");
    // Waits on the page (Playwright's own timeout), not on expect.poll's one second: a loaded machine is slow.
    await participant.locator("#runs td:text('finalised')").nth(1).waitFor();
    expect(await participant.locator("#runs td:text('finalised')").count()).toBe(2);
    await participant.click("[data-tab=boards]");
    await participant.waitForSelector(`#boards td:text("${model}")`);
    expect(await participant.textContent("#boards")).toContain("ranked by practice_score");
    await organiser.waitForSelector(`#boards td:text("${model}")`);
    await organiser.waitForSelector("#agents td:text('atlas')");
    if (SHOTS) {
      await participant.click("[data-tab=uploads]");
      await participant.screenshot({ path: `${SHOTS}/web-participant.png` });
      await organiser.screenshot({ path: `${SHOTS}/web-console.png` });
    }
  });

  it("ran nothing from the data, asked nothing off its origin, broke no CSP rule", () => {
    expect(dialogs).toEqual([]);
    expect(offOrigin).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  });
});

describe("the web app over the default tournament", () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ scenario: loadScenario(scenarioFile("default-tournament")), port: 0, host: "127.0.0.1", log: () => {} });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows a tournament key its standings, stakes, allowance and compute refusals as the API gives them", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url + "/");
    await page.fill("#key", "key-dice-0002");
    await page.click("#signin button[type=submit]");
    await page.waitForSelector("#live-state:text('live')");
    await page.waitForSelector("#boards :text('Tournament standings')");
    expect(await page.textContent("#boards")).toContain("ranked by");
    await page.click("[data-tab=money]");
    await page.waitForSelector("#money dt:text('allowance_micro')");
    await page.click("[data-tab=compute]");
    await page.waitForSelector("#compute .refusal, #compute table, #compute dl");
    expect(errors).toEqual([]);
  });
});
