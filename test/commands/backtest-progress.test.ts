import { describe, expect, it } from "vitest";
import { BacktestProgress, duration } from "../../src/commands/backtest-progress.js";

const step = (n: number, settled: number) => ({ step: n, steps: 40, settled, rounds: 5 });

describe("backtest's progress", () => {
  it("as plain lines: the load, each fit's start and end, and the walk each time an exped settles", () => {
    const out: string[] = [];
    const progress = new BacktestProgress("lines", (s) => out.push(s));
    progress.load("the dataset of small.json");
    progress.walk(step(1, 0));
    progress.fitting("agent");
    progress.walk(step(2, 0)); // not while a fit runs
    progress.fitted("agent");
    progress.walk(step(3, 0));
    progress.walk(step(4, 0)); // nothing new settled: no line
    progress.walk(step(9, 1));
    progress.note("a note");
    progress.end();
    const lines = out.join("").split("\n");
    expect(lines[0]).toBe("backtest: load: the dataset of small.json");
    expect(lines[1]).toBe("backtest: walk: 0 of 5 expeds settled");
    expect(lines[2]).toMatch(/^backtest: fit: agent \d+ s$/);
    expect(lines[3]).toMatch(/^backtest: fit: agent ended after \d+ s$/);
    expect(lines[4]).toBe("backtest: walk: 0 of 5 expeds settled");
    expect(lines[5]).toMatch(/^backtest: walk: 1 of 5 expeds settled ETA \d+ s$/);
    expect(lines.slice(6)).toEqual(["a note", ""]);
  });

  it("on a terminal: one line redrawn in place, a note on a line of its own, and the line cleared at the end", () => {
    const out: string[] = [];
    const progress = new BacktestProgress("redraw", (s) => out.push(s));
    progress.load("x");
    progress.note("logs: here");
    progress.end();
    expect(out).toEqual(["\r\x1b[Kbacktest: load: x", "\r\x1b[K", "logs: here\n", "backtest: load: x", "\r\x1b[K"]);
  });

  it("writes durations as seconds, minutes and hours", () => {
    expect([duration(400), duration(59_000), duration(125_000), duration(3_720_000)]).toEqual(["0 s", "59 s", "2m 05s", "1h 02m"]);
  });
});
