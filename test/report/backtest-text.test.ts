import { describe, expect, it } from "vitest";
import { formatBacktestText } from "../../src/report/backtest-text.js";
import { backtestOf, report } from "./fixtures.js";

const lineOf = (text: string, start: string): string => {
  const line = text.split("\n").find((l) => l.startsWith(start));
  if (line === undefined) throw new Error(`no line starts with ${start}`);
  return line;
};
/** The sparkline line of a strategy. */
const sparkOf = (text: string, name: string): string => lineOf(text.split("\n").filter((l) => /[▁-█]/.test(l)).join("\n"), name + " ");

describe("formatBacktestText", () => {
  const text = formatBacktestText(report());

  it("heads the report with the strategy and where the numbers come from", () => {
    expect(text.split("\n").slice(0, 4)).toEqual([
      "backtest of ridge-v2 on default-tournament",
      "train 24000 rows, validation 12000 rows",
      "weights corr 0.5, aimc 1, ncorr 0; clip 0.05",
      "12 expeds walked, 11 entered",
    ]);
  });

  it("has one summary row per strategy, the strategy under test first, then v1_designated", () => {
    const r = report();
    r.against = { momentum: r.against.momentum, v1_designated: r.against.v1_designated };
    const lines = formatBacktestText(r).split("\n");
    const header = lines.findIndex((l) => l.startsWith("strategy ") && l.includes("TB CORR"));
    expect(lines.slice(header, header + 4)).toEqual([
      "strategy          CORR     AIMC    NCORR    score  FN CORR  TB CORR    total",
      "ridge-v2       +0.0227  +0.0114  +0.0182  +0.0227  +0.0136  +0.0341  +0.2500",
      "v1_designated  +0.0103  +0.0052  +0.0083  +0.0103  +0.0062  +0.0155  +0.1240",
      "momentum       -0.0046  -0.0023  -0.0037  -0.0046  -0.0027  -0.0069  -0.0550",
    ]);
    const second = lines.findIndex((l) => l.includes("bench corr") && l.startsWith("strategy"));
    expect(lines.slice(second, second + 2)).toEqual([
      "strategy       corr v1  bench corr  exp mean  exp pooled",
      "ridge-v2       +0.5000     +0.5000   +0.1235     +0.0988",
    ]);
  });

  it("gives each series its statistics, with the differences against v1_designated's under every other strategy", () => {
    const lines = text.split("\n");
    const score = lines.findIndex((l) => l.startsWith("score ") && l.includes("Calmar"));
    expect(lines.slice(score, score + 6)).toEqual([
      "score             mean      std   Sharpe    smart   max DD  DD ex   Calmar      hit      AC1",
      "ridge-v2       +0.0227  +0.0152  +1.4932  +3.2784  +0.0120      2  +1.8939  +0.9091  -0.7212",
      "  Δ            +0.0124  +0.0025  +0.6790",
      "v1_designated  +0.0103  +0.0127  +0.8142  +1.7017  +0.0200      2  +0.5167  +0.8333  -0.6818",
      "momentum       -0.0046  +0.0086  -0.5313  -0.8804  +0.0510     10  -0.0899  +0.3333  -0.5071",
      "  Δ            -0.0149  -0.0041  -1.3456",
    ]);
    for (const series of ["CORR", "AIMC", "NCORR", "FN CORR", "TB CORR"]) expect(lines.some((l) => l.startsWith(`${series} `) && l.endsWith("AC1"))).toBe(true);
    expect(text).toContain("ridge-v2: most often each exped's max feature_amber; pooled max feature_basalt");
    expect(lines.slice(lines.indexOf("feature         mean |corr|  pooled |corr|"), lines.indexOf("feature         mean |corr|  pooled |corr|") + 2)).toEqual([
      "feature         mean |corr|  pooled |corr|",
      "feature_amber       +0.1200        +0.1000",
    ]);
  });

  it("shows a series left out (FN CORR above its work bound) as — and names no difference", () => {
    const r = report();
    r.summary.fn_corr = null;
    const lines = formatBacktestText(r).split("\n");
    const fn = lines.findIndex((l) => l.startsWith("FN CORR ") && l.endsWith("AC1"));
    expect(lines[fn + 1]).toBe("ridge-v2             —        —        —        —        —      —        —        —        —");
    expect(lines[fn + 2]).toMatch(/^v1_designated /);
    expect(lineOf(formatBacktestText(r), "ridge-v2       +0.0227")).toMatch(/\+0\.0227 {2}\+0\.0114 {2}\+0\.0182 {2}\+0\.0227 {8}— {2}\+0\.0341/);
  });

  it("says which columns are per-exped means and which is the sum", () => {
    expect(text).toContain("per-exped means");
    expect(text).toContain("total = the score's sum over every walked exped");
  });

  it("shows an exped not entered as — and the refusal that explains it", () => {
    expect(lineOf(text, "exped_0107")).toBe("exped_0107     —        —        —        —        —        —        —        —        —");
    expect(lineOf(text, "exped_0101")).toBe("exped_0101  5000  +0.0210  +0.0105  +0.0168  +0.0210  +0.0126  +0.0315  +0.5000  +0.1000");
    expect(text.endsWith("refusals:\nridge-v2\n  exped_0107: Submission window is closed\n")).toBe(true);
  });

  it("draws every cumulative score on one scale: the highest ends on █, a constant zero series is flat", () => {
    const r = report();
    r.against.idle = backtestOf(Array(12).fill(0));
    const t = formatBacktestText(r);
    expect(t).toContain("common scale -0.0560 to +0.2500");
    expect(sparkOf(t, "ridge-v2")).toBe("ridge-v2       ▃▄▃▄▅▅▅▆▆▇▇█  +0.2500");
    expect(sparkOf(t, "momentum")).toMatch(/ ▂+▁+  -0\.0550$/);
    expect(sparkOf(t, "idle")).toBe("idle           ▂▂▂▂▂▂▂▂▂▂▂▂  +0.0000");
  });

  it("fits every line in 100 columns, cutting long names to one width everywhere", () => {
    const r = report("a-strategy-with-a-name-far-too-long-for-any-table.py");
    const t = formatBacktestText(r);
    for (const line of t.split("\n")) expect(Array.from(line).length, line).toBeLessThanOrEqual(100);
    expect(lineOf(t, "a-strategy-with-a-na… ")).toMatch(/^a-strategy-with-a-na… {2}\+0\.0227/);
    expect(sparkOf(t, "a-strategy-with-a-na…")).toBe("a-strategy-with-a-na…  ▃▄▃▄▅▅▅▆▆▇▇█  +0.2500");
    expect(sparkOf(formatBacktestText(r, { width: 40 }), "a-strat…")).toBe("a-strat…  ▃▄▃▄▅▅▅▆▆▇▇█  +0.2500");
  });

  it("prints users' names as plain text: no escape sequence reaches the terminal", () => {
    const t = formatBacktestText(report("evil\u001b[31m\nname"));
    expect(t).not.toMatch(/\u001b/);
    expect(t).toContain("evil\uFFFD[31m\uFFFDname");
  });

  it("puts the refusals first when they dominate the walk", () => {
    const r = report();
    r.refusals = [...r.expeds.slice(0, 6).map((e) => ({ exped: e.exped, reason: "Model crashed" })), { exped: "exped_0107", reason: "Submission window is closed" }];
    const t = formatBacktestText(r);
    expect(t.indexOf("refusals:")).toBeLessThan(t.indexOf("per-exped means"));
    // A run of one reason says it once.
    expect(t).toContain("\n  exped_0101 to exped_0106 (6 expeds): Model crashed\n  exped_0107: Submission window is closed\n");
    expect(text.indexOf("refusals:")).toBeGreaterThan(text.indexOf("cumulative score"));
  });

  it("leaves out the refusals when there are none", () => {
    const r = report();
    r.refusals = [];
    expect(formatBacktestText(r)).not.toContain("refusals");
  });
});
