import { describe, expect, it } from "vitest";
import { renderBacktestHtml } from "../../src/report/backtest-html.js";
import { escapeHtml } from "../../src/report/html-escape.js";
import { report } from "./fixtures.js";

const count = (html: string, re: RegExp): number => html.match(re)?.length ?? 0;

describe("renderBacktestHtml", () => {
  it("escapes every string from the report: names, expeds, refusal reasons, the scenario", () => {
    const r = report("<script>alert(1)</script>");
    r.against[`"><svg onload=alert(2)>`] = r.against.momentum;
    r.expeds[0].exped = "<b>exped</b>";
    r.refusals[0].reason = "<iframe src=javascript:alert(3)>";
    r.context.scenario = "a&b'c";
    const html = renderBacktestHtml(r);
    expect(html).not.toMatch(/<script|<iframe|<svg onload|<b>exped/i);
    expect(html).toContain("<h1>Backtest: &lt;script&gt;alert(1)&lt;/script&gt;</h1>");
    expect(html).toContain('data-strategy="&quot;&gt;&lt;svg onload=alert(2)&gt;"');
    expect(html).toContain("&lt;iframe src=javascript:alert(3)&gt;");
    expect(html).toContain("<b>a&amp;b&#39;c</b>");
  });

  it("loads nothing from anywhere: no script, no link, no src, and a policy that forbids them", () => {
    const html = renderBacktestHtml(report());
    expect(html).not.toMatch(/<script|<link|\ssrc=|url\(|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
  });

  it("draws a line per strategy, a bar per exped, a summary row per strategy and an exped row per exped", () => {
    const html = renderBacktestHtml(report());
    expect(count(html, /<polyline class="series /g)).toBe(3);
    expect(count(html, /<rect class="bar /g)).toBe(12);
    expect(count(html, /<rect class="bar not-entered"/g)).toBe(1);
    const tbody = (id: string) => html.slice(html.indexOf(`id="${id}"`)).split("</tbody>")[0];
    expect(count(tbody("summary-table"), /<tr[ >]/g)).toBe(3 + 2);
    expect(count(tbody("expeds-table"), /<tr[ >]/g)).toBe(12 + 1);
    expect(tbody("expeds-table")).toContain(`<tr class="not-entered"><th scope="row">exped_0107</th><td>—</td><td>—</td><td>—</td><td>—</td><td>—</td></tr>`);
  });

  it("lists the strategies in the summary as the text does: under test, v1_designated, the others", () => {
    const r = report();
    r.against = { momentum: r.against.momentum, v1_designated: r.against.v1_designated };
    const names = [...renderBacktestHtml(r).matchAll(/<tr(?: class="under-test")?><th scope="row"><span class="swatch s\d"><\/span>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(names).toEqual(["ridge-v2", "v1_designated", "momentum"]);
  });

  it("says so when nothing was refused", () => {
    const r = report();
    r.refusals = [];
    expect(renderBacktestHtml(r)).toContain("<p>None: every strategy entered every exped.</p>");
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});
