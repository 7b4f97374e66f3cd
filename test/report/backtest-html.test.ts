import { describe, expect, it } from "vitest";
import { renderBacktestHtml } from "../../src/report/backtest-html.js";
import { escapeHtml } from "../../src/report/html-escape.js";
import { backtestOf, report } from "./fixtures.js";

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

  it("draws a line per strategy in each line chart, a bar per exped for each term, a summary row per strategy and an exped row per exped", () => {
    const html = renderBacktestHtml(report());
    const chart = (id: string) => html.slice(html.indexOf(`<svg id="${id}"`)).split("</svg>")[0];
    for (const id of ["cumulative-chart", "drawdown-chart", "rolling-mean-chart", "rolling-sharpe-chart"]) expect(count(chart(id), /<polyline class="series /g), id).toBe(3);
    for (const id of ["corr-bars", "aimc-bars", "ncorr-bars", "score-bars"]) {
      expect(count(chart(id), /<rect class="bar /g), id).toBe(12);
      expect(count(chart(id), /<rect class="bar not-entered"/g), id).toBe(1);
      expect(count(chart(id), /<line class="benchmark"/g), id).toBe(12);
    }
    expect(count(chart("exposure-chart"), /<rect class="bar exposure"/g)).toBe(10);
    const tbody = (id: string) => html.slice(html.indexOf(`id="${id}"`)).split("</tbody>")[0];
    expect(count(tbody("summary-table"), /<tr[ >]/g)).toBe(3 + 2);
    expect(count(tbody("expeds-table"), /<tr[ >]/g)).toBe(12 + 1);
    expect(tbody("expeds-table")).toContain(`<tr class="not-entered"><th scope="row">exped_0107</th>${"<td>—</td>".repeat(9)}<td></td></tr>`);
  });

  it("tells equal lines apart: each strategy its own dash pattern, and a note naming the ones that coincide", () => {
    const r = report();
    r.against.copy = r.against.v1_designated;
    const html = renderBacktestHtml(r);
    const cumulative = html.slice(html.indexOf(`<svg id="cumulative-chart"`)).split("</svg>")[0];
    expect([...cumulative.matchAll(/<polyline class="series s(\d) dash(\d)/g)].map((m) => m[2]).sort()).toEqual(["0", "1", "2", "3"]);
    expect(html).toContain("v1_designated and copy have the same values here");
    expect(renderBacktestHtml(report())).not.toMatch(/have the same values here|of each other here/);
    // A line a hair's breadth from another (here 1e-6 per exped) is named too: it would hide beneath it.
    const near = report();
    near.against.twin = backtestOf([0.021, 0.034, -0.012, 0.045, 0.018, 0.027, null, 0.031, 0.009, 0.04, 0.012, 0.025].map((c) => (c === null ? null : c + 1e-6)));
    expect(renderBacktestHtml(near)).toMatch(/ridge-v2 and twin lie within 0\.\d{4} of each other here/);
  });

  it("puts the refusals first when they dominate the walk", () => {
    const r = report();
    r.refusals = r.expeds.slice(0, 6).map((e) => ({ exped: e.exped, reason: "Model crashed" }));
    const html = renderBacktestHtml(r);
    expect(html.indexOf(`<section id="refusals" class="first">`)).toBeGreaterThan(0);
    expect(html.indexOf(`id="refusals"`)).toBeLessThan(html.indexOf(`id="cumulative-chart"`));
    const normal = renderBacktestHtml(report());
    expect(normal.indexOf(`id="refusals"`)).toBeGreaterThan(normal.indexOf(`id="expeds-table"`));
  });

  it("lists the strategies in the summary as the text does: under test, v1_designated, the others", () => {
    const r = report();
    r.against = { momentum: r.against.momentum, v1_designated: r.against.v1_designated };
    const summary = renderBacktestHtml(r).split(`id="summary-table"`)[1].split("</table>")[0];
    const names = [...summary.matchAll(/<tr(?: class="under-test")?><th scope="row"><span class="swatch s\d"><\/span>([^<]*)<\/th>/g)].map((m) => m[1]);
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
