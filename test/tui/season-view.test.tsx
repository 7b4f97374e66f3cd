import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { progressBar } from "../../src/tui/progress-bar.js";
import { SeasonView } from "../../src/tui/season-view.js";
import { formatStakeBalances } from "../../src/tui/stakes-text.js";
import { board } from "./fixtures.js";

const plain = (s: string | undefined): string => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");
const progress = { settled: 6, total: 10, phase: "closed", now: "2026-01-14T16:00:00.000Z" };
const log = [1, 2, 3, 4, 5, 6, 7].map((i) => `refusal ${i}: 409 cadence_not_open`);

describe("<SeasonView>", () => {
  it("shows the header, the standings in rank order and the latest log lines", () => {
    const frame = plain(render(<SeasonView scenario="default-tournament" seed={42} progress={progress} board={board} log={log} digest={null} />).lastFrame());
    expect(frame).toContain("default-tournament");
    expect(frame).toContain("seed 42");
    expect(frame).toContain("2026-01-14T16:00:00.000Z closed");
    expect(frame).toContain("[████████████░░░░░░░░] 6/10 rounds settled");
    expect(frame).toContain("ranked by total");
    const order = ["alpha", "beta-long", "  c  "].map((name) => frame.indexOf(name));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(frame).not.toContain("refusal 2:");
    for (const i of [3, 4, 5, 6, 7]) expect(frame).toContain(`refusal ${i}: 409 cadence_not_open`);
    expect(frame).not.toContain("digest");
  });

  it("shows the event-log digest once the season is over, and no board before the first score", () => {
    const done = { ...progress, settled: 10, phase: "season_closed" };
    const frame = plain(render(<SeasonView scenario="s" seed="abc" progress={done} board={null} log={[]} digest="sha256:9f2c" />).lastFrame());
    expect(frame).toContain("seed abc");
    expect(frame).toContain("[████████████████████] 10/10 rounds settled");
    expect(frame).toContain("no standings yet");
    expect(frame).toContain("event log digest sha256:9f2c");
  });

  it("shows the stake table once a money event is over, amounts in USDC", () => {
    const done = { ...progress, settled: 10, phase: "done" };
    const stakes = formatStakeBalances({
      product: "event",
      rank_metric: "net_micro",
      rows: [
        { rank: 1, agent: "atlas", net_micro: 51_610_144, settled_micro: 1_610_144, locked_micro: 0 },
        { rank: 2, agent: "drift", net_micro: 49_500_000, settled_micro: -500_000, locked_micro: 2_500_000 },
      ],
    });
    const frame = plain(render(<SeasonView scenario="s" seed={1} progress={done} board={board} log={[]} digest="d" stakes={stakes} />).lastFrame());
    expect(frame).toContain("event deposits (USDC)");
    expect(frame).toContain("ranked by net_micro");
    expect(frame).toMatch(/1 {2}atlas +51\.610144 +1\.610144 +0/);
    expect(frame).toMatch(/2 {2}drift +49\.5 +-0\.5 +2\.5/);
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
