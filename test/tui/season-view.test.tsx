import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { progressBar } from "../../src/tui/progress-bar.js";
import { addRound, NO_ROUNDS } from "../../src/tui/round-history.js";
import { SeasonView, type SeasonViewProps } from "../../src/tui/season-view.js";
import { formatStakeBalances } from "../../src/tui/stakes-text.js";
import { bigBoard, board, roundBoards } from "./fixtures.js";

const plain = (s: string | undefined): string => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");
const progress = { settled: 6, total: 10, phase: "closed", now: "2026-01-14T16:00:00.000Z" };
const log = [1, 2, 3, 4, 5, 6, 7].map((i) => `refusal ${i}: 409 cadence_not_open`);
const digest = "19a07ba27f4df801a9832f6b6b78688654097f9393eb465eeeb599b7cceab051";
const stakes = formatStakeBalances({
  product: "event",
  rank_metric: "net_micro",
  rows: ["atlas", "drift", "ember", "flint", "gale", "haze", "iris", "jade", "kite", "lumen"].map((agent, i) => ({
    rank: i + 1,
    agent,
    net_micro: 51_610_144 - i * 1_000_000,
    settled_micro: 1_610_144 - i * 1_000_000,
    locked_micro: 0,
  })),
});
const frameOf = (props: Partial<SeasonViewProps>): string[] =>
  plain(render(<SeasonView scenario="default-tournament" seed={42} progress={progress} board={board} log={log} digest={null} {...props} />).lastFrame()).split("\n");

describe("<SeasonView>", () => {
  it("shows the title, the standings in rank order, the latest log lines and the progress", () => {
    const frame = frameOf({}).join("\n");
    expect(frame).toContain("default-tournament seed 42");
    expect(frame).toContain("ranked by total · CORR AIMC NCORR = per-round means");
    const order = ["alpha", "beta-long", "  c  "].map((name) => frame.indexOf(name));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(frame).not.toContain("refusal 2:");
    for (const i of [3, 4, 5, 6, 7]) expect(frame).toContain(`refusal ${i}: 409 cadence_not_open`);
    expect(frame).not.toContain("digest");
    expect(frame.split("\n").at(-1)).toBe("[████████████░░░░░░░░] 6/10 rounds settled · 2026-01-14T16:00:00.000Z closed");
  });

  it("fits 80×24 with a full season: standings cut with “… N more”, the progress last", () => {
    const big = bigBoard(20);
    const history = roundBoards(big).reduce(addRound, NO_ROUNDS);
    const frame = frameOf({ board: big, history, size: { columns: 80, rows: 24 }, status: "running" });
    expect(frame.length).toBeLessThanOrEqual(23);
    for (const line of frame) expect(line.length).toBeLessThanOrEqual(80);
    expect(frame[0]).toMatch(/^default-tournament seed 42 +q quit · space pause$/);
    expect(frame[1]).toBe("ranked by total = sum of round scores · CORR AIMC NCORR = per-round means");
    expect(frame[2]).toMatch(/^ #  model +rounds +CORR +AIMC +NCORR +total  round scores$/);
    expect(frame.filter((l) => /model-\d+ .* {2}[▁▂▃▄▅▆▇█·]{2}$/.test(l)).length).toBeGreaterThan(5);
    expect(frame).toContain("ties share a rank; the service orders them by model id");
    const more = frame.find((l) => l.startsWith("… "));
    const shown = frame.filter((l) => l.includes("model-")).length;
    expect(more).toBe(`… ${20 - shown} more`);
    expect(frame.at(-1)).toMatch(/^\[█+░+\] 6\/10 rounds settled · 2026-01-14T16:00:00.000Z closed$/);
  });

  it("uses a taller, wider terminal for more rows and a longer sparkline", () => {
    const big = bigBoard(20);
    const history = [...roundBoards(big), ...roundBoards(big)].reduce(addRound, NO_ROUNDS);
    const frame = frameOf({ board: big, history, size: { columns: 120, rows: 40 } });
    expect(frame.filter((l) => l.includes("model-")).length).toBe(20);
    expect(frame.join("\n")).not.toContain("more");
    expect(frame.some((l) => /model-0 .* {2}[▁▂▃▄▅▆▇█·]{4}$/.test(l))).toBe(true);
    expect(frame.length).toBeLessThanOrEqual(39);
  });

  it("ends on the digest once over, still inside 80×24 with a long stake table", () => {
    const done = { ...progress, settled: 10, phase: "season_closed" };
    const frame = frameOf({ progress: done, board: bigBoard(20), stakes, digest, size: { columns: 80, rows: 24 }, status: "running" });
    expect(frame.length).toBeLessThanOrEqual(23);
    expect(frame.at(-1)).toBe(`log digest ${digest}`);
    expect(frame.at(-2)).toContain("10/10 rounds settled");
    expect(frame[0].trimEnd()).toBe("default-tournament seed 42");
    expect(frame).toContain("event deposits (USDC)");
    expect(frame.some((l) => /^… \d+ more$/.test(l) && frame.indexOf(l) > frame.indexOf("event deposits (USDC)"))).toBe(true);
  });

  it("shows the event-log digest once the season is over, and no board before the first score", () => {
    const done = { ...progress, settled: 10, phase: "season_closed" };
    const frame = frameOf({ seed: "abc", progress: done, board: null, log: [], digest: "9f2c" });
    expect(frame).toEqual(["default-tournament seed abc", "no standings yet", "[████████████████] 10/10 rounds settled · 2026-01-14T16:00:00.000Z season_closed", "log digest 9f2c"]);
  });

  it("shows the stake table once a money event is over, amounts in USDC", () => {
    const frame = frameOf({ progress: { ...progress, phase: "done" }, digest: "d", stakes, size: { columns: 80, rows: 40 } }).join("\n");
    expect(frame).toContain("event deposits (USDC)");
    expect(frame).toContain("ranked by net_micro");
    expect(frame).toMatch(/1 {2}atlas +51\.610144 +1\.610144 +0/);
    expect(frame).toMatch(/10 {2}lumen +42\.610144 +-7\.389856 +0/);
  });

  it("says when the replay is paused or stopping, and offers no keys without a terminal", () => {
    expect(frameOf({ status: "paused" })[0]).toMatch(/ paused · space resumes · q quit$/);
    expect(frameOf({ status: "stopping" })[0]).toMatch(/ stopping after this step…$/);
    expect(frameOf({ status: "off" })[0].trimEnd()).toBe("default-tournament seed 42");
  });
});

describe("progressBar", () => {
  it("fills in proportion to the settled rounds", () => {
    expect(progressBar(0, 4, 8)).toBe("[░░░░░░░░] 0/4");
    expect(progressBar(1, 3, 6)).toBe("[██░░░░] 1/3");
    expect(progressBar(4, 4, 8)).toBe("[████████] 4/4");
    expect(progressBar(0, 0, 4)).toBe("[░░░░] 0/0");
  });
});
