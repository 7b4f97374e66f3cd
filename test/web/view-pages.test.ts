import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadWebAssets } from "../../src/http/web-assets.js";
import { viewPage } from "../../src/http/web-pages.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-view-pages-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The shared page and one view written into a directory of their own, as the app's files would be. */
function app(shell: string, view: string): ReturnType<typeof loadWebAssets> {
  const own = mkdtempSync(join(dir, "app-"));
  writeFileSync(join(own, "page.html"), shell);
  writeFileSync(join(own, "view.html"), view);
  return loadWebAssets(own);
}

describe("the app's pages, each written into the shared page", () => {
  it("both views carry the one sign-in form and summary, each with its own title, script, key label and summary cell", () => {
    const assets = loadWebAssets();
    const participant = text(viewPage(assets, "index.html").bytes);
    const console = text(viewPage(assets, "console.html").bytes);
    for (const page of [participant, console]) {
      expect(page).toMatch(/^<!doctype html>/);
      expect(page).toContain('<form id="signin" class="when-out">');
      expect(page).toContain('<strong id="phase"></strong>');
      expect(page).not.toMatch(/\{\{|<!-- slot/);
    }
    expect(participant).toContain('<script type="module" src="/web/participant.js">');
    expect(participant).toContain("<label>Your API key <input");
    expect(participant).toContain('id="uploads-remaining"');
    expect(console).toContain("<title>Basecamp · organiser console</title>");
    expect(console).toContain('<script type="module" src="/web/console.js">');
    expect(console).toContain('id="clock-mode"');
    expect(console).not.toContain('id="uploads-remaining"');
  });

  it("fills each slot with the view's text up to the next, less one final newline", () => {
    const assets = app("<h1>{{title}}</h1>\n{{main}}\n<p>{{title}}</p>", "<!-- a comment -->\n<!-- slot title -->Hello\n<!-- slot main --><main>\n  x\n</main>\n");
    expect(text(viewPage(assets, "view.html").bytes)).toBe("<h1>Hello</h1>\n<main>\n  x\n</main>\n<p>Hello</p>");
  });

  it("a slot the view leaves unfilled, or one the shared page lacks, stops it, naming the slot", () => {
    expect(() => viewPage(app("{{title}} {{main}}", "<!-- slot title -->x"), "view.html")).toThrow("web page view.html fills no slot main of page.html");
    expect(() => viewPage(app("{{title}}", "<!-- slot title -->x\n<!-- slot footer -->y"), "view.html")).toThrow(
      "web page view.html fills slots page.html does not have: footer",
    );
  });
});
