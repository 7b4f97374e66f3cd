import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM } from "./machine.js";

/** A report page opened from its file in headless Chromium. */
export interface OfflinePage {
  page: Page;
  /** Every request the page made off the machine (each refused). */
  requested: string[];
  /** Every dialog it raised (each dismissed). */
  dialogs: string[];
  /** The temporary directory its file is in, removed by close. */
  dir: string;
  close: () => Promise<void>;
}

/** Writes `html` to a file of a new temporary directory and opens it in a new headless Chromium, the network refused: a self-contained report needs none of it. */
export async function openOffline(html: string): Promise<OfflinePage> {
  const dir = await mkdtemp(join(tmpdir(), "report-page-"));
  const file = join(dir, "page.html");
  await writeFile(file, html);
  const requested: string[] = [];
  const dialogs: string[] = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const close = async () => {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.route("**", (route) => {
      const url = route.request().url();
      if (url.startsWith("file://")) return route.continue();
      requested.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    return { page, requested, dialogs, dir, close };
  } catch (e) {
    await close();
    throw e;
  }
}
