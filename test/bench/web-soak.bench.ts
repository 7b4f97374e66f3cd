/**
 * The web app left open (`npm run bench -- web-soak`): `basecamp serve scenarios/default-event.json
 * --with-agents` on a realtime clock (SOAK_SPEED times the wall clock, default 1.5: the event's
 * build phase, four rounds and their settlement in about an hour), with an agent's page and the
 * organiser's console open in headless Chromium for SOAK_MINUTES (default 60). Every SOAK_EVERY_S
 * seconds (default 60) it collects each page's garbage and reads its JS heap (Chrome DevTools
 * Protocol), its element count and the phase it shows, which must be the phase the API's status
 * gives; and the server's whole-tree RSS. Reported: each series' first, largest and last value, the
 * phases seen, and the samples where a page showed another phase than the API (none expected).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Page } from "playwright-core";
import { ensureBuilt, report, treeRss, treeRssNow } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const SPEED = Number(process.env.SOAK_SPEED ?? 1.5);
const EVERY_S = Number(process.env.SOAK_EVERY_S ?? 60);
const AGENT = "key-atlas-0000";
const ORGANISER = "organiser-event-0001";

interface Sample {
  heapMb: number;
  elements: number;
  phase: string;
}

/** The page's heap after a collection, its element count and the phase it shows. */
async function sample(page: Page): Promise<Sample> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  const shown = await page.evaluate(() => ({ elements: document.getElementsByTagName("*").length, phase: document.getElementById("phase")?.textContent ?? "" }));
  return { heapMb: heap.usedSize / 2 ** 20, ...shown };
}

const series = (xs: number[], unit: string) => `${xs[0].toFixed(1)} → ${xs[xs.length - 1].toFixed(1)} ${unit} (largest ${Math.max(...xs).toFixed(1)})`;

export async function run(): Promise<void> {
  ensureBuilt();
  const server = spawn(process.execPath, [join(root, "bin/basecamp.js"), "serve", "scenarios/default-event.json", "--with-agents", "--clock", "realtime", "--speed", String(SPEED), "--port", "0"], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  const rss = treeRss(server.pid!, 1000);
  let said = "";
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (s: string) => {
      said = (said + s).slice(-20_000);
      const m = / at (http:\/\/\S+)\/api\/v1 /.exec(said);
      if (m) resolve(m[1]);
    });
    server.once("exit", (code) => reject(new Error(`serve exited (${code}):\n${said}`)));
  });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  try {
    const pages: Record<string, Page> = {};
    for (const [name, path, key] of [["agent's page", "/", AGENT], ["console", "/console", ORGANISER]]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url + path);
      await page.fill("#key", key);
      await page.click("#signin button[type=submit]");
      await page.waitForSelector("#live-state:text('live')");
      pages[name] = page;
    }
    const seen: Record<string, Sample[]> = Object.fromEntries(Object.keys(pages).map((n) => [n, []]));
    const serverMb: number[] = [];
    const mismatches: string[] = [];
    const phases = new Set<string>();
    let simStart = "";
    let simNow = "";
    const started = performance.now();
    for (let k = 0; (performance.now() - started) / 60_000 < MINUTES; k++) {
      if (k > 0) await sleep(EVERY_S * 1000);
      const status = await fetch(`${url}/api/v1/status`, { headers: { "X-API-Key": AGENT } }).then((r) => r.json() as Promise<{ now: string; cadence: { phase: string } }>);
      simStart ||= status.now;
      simNow = status.now;
      phases.add(status.cadence.phase);
      for (const [name, page] of Object.entries(pages)) {
        let s = await sample(page);
        // A phase that changed between the status read and the page's sample is read once more.
        if (s.phase !== status.cadence.phase) s = await sleep(2000).then(() => sample(page));
        const now = await fetch(`${url}/api/v1/status`, { headers: { "X-API-Key": AGENT } }).then((r) => r.json() as Promise<{ cadence: { phase: string } }>);
        if (s.phase !== now.cadence.phase) mismatches.push(`${name} at sample ${k}: shows '${s.phase}', the API '${now.cadence.phase}'`);
        seen[name].push(s);
      }
      serverMb.push(treeRssNow(server.pid!));
    }
    const lines: Record<string, string> = {
      workload: `default-event served with its agents, realtime x${SPEED}, ${MINUTES} min with both pages open; a sample every ${EVERY_S} s (${serverMb.length} samples)`,
      simulated: `${simStart} → ${simNow}; phases seen: ${[...phases].join(", ")}`,
    };
    for (const [name, xs] of Object.entries(seen)) {
      lines[`${name} heap`] = series(xs.map((x) => x.heapMb), "MB after GC");
      lines[`${name} DOM`] = series(xs.map((x) => x.elements), "elements");
    }
    lines["server RSS"] = `${series(serverMb, "MB")}; peak ${rss.stop().toFixed(0)} MB`;
    lines["phase shown"] = mismatches.length === 0 ? "always the API's" : `${mismatches.length} mismatches: ${mismatches.slice(0, 5).join("; ")}`;
    report("web app left open", lines);
  } finally {
    await browser.close();
    rss.stop();
    server.kill("SIGTERM");
  }
}
