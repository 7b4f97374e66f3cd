import { render as inkRender } from "ink";
import { render } from "ink-testing-library";
import { EventEmitter } from "node:events";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { LiveSeason } from "../../src/tui/live-season.js";
import { SeasonFeed } from "../../src/tui/season-feed.js";
import { bigBoard, roundBoards } from "./fixtures.js";

const plain = (s: string | undefined): string => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");
// React finishes what a render, a key or an update set off (effects, re-renders) inside `act`,
// rather than on the scheduler's own turns, which a test could only wait out on a busy machine.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const settled = <T,>(fn: () => T): Promise<T> => act(async () => fn());
const progress = { kind: "progress", now: "2026-01-06T16:00:00.000Z", phase: "closed", settled: 2, rounds: 12 } as const;

function season() {
  const feed = new SeasonFeed();
  const calls: string[] = [];
  const control = { setPaused: (p: boolean) => calls.push(p ? "pause" : "resume"), quit: () => calls.push("quit") };
  return { feed, calls, element: <LiveSeason scenario="default-tournament" seed={7} rounds={12} feed={feed} control={control} /> };
}

describe("<LiveSeason>", () => {
  it("shows the updates sent before and after it mounts, with each model's sparkline", async () => {
    const { feed, element } = season();
    const board = bigBoard(4);
    const [r1, r2] = roundBoards(board);
    feed.push({ kind: "settled", board, round: r1 });
    const app = await settled(() => render(element));
    await settled(() => {
      feed.push({ kind: "settled", board, round: r2 });
      feed.push({ kind: "log", line: "dice exped_0002: refused 409" });
      feed.push(progress);
    });
    const frame = plain(app.lastFrame()).split("\n");
    expect(frame).toContain("dice exped_0002: refused 409");
    expect(frame.find((l) => l.includes("model-0"))).toMatch(/ {2}[▁▂▃▄▅▆▇█]{2}$/);
    expect(frame.find((l) => l.includes("model-3"))).toMatch(/ {2}·[▁▂▃▄▅▆▇█]$/);
    expect(frame.at(-1)).toMatch(/2\/12 rounds settled · 2026-01-06T16:00:00.000Z closed$/);
    await settled(() => app.unmount());
  });

  it("pauses and resumes the replay on space, and quits it on q", async () => {
    const { feed, calls, element } = season();
    feed.push(progress);
    const app = await settled(() => render(element));
    expect(plain(app.lastFrame()).split("\n")[0]).toMatch(/ q quit · space pause$/);
    await settled(() => app.stdin.write(" "));
    expect(plain(app.lastFrame()).split("\n")[0]).toMatch(/ paused · space resumes · q quit$/);
    await settled(() => app.stdin.write(" "));
    expect(plain(app.lastFrame()).split("\n")[0]).toMatch(/ q quit · space pause$/);
    await settled(() => app.stdin.write("q"));
    expect(plain(app.lastFrame()).split("\n")[0]).toMatch(/ stopping after this step…$/);
    await settled(() => app.stdin.write(" "));
    expect(calls).toEqual(["pause", "resume", "quit"]);
    await settled(() => feed.push({ kind: "done", board: bigBoard(3), digest: "abc", stakes: null }));
    const frame = plain(app.lastFrame()).split("\n");
    expect(frame[0].trimEnd()).toBe("default-tournament seed 7");
    expect(frame.at(-1)).toBe("log digest abc");
    await settled(() => app.unmount());
  });

  it("takes no keys and offers none when stdin is not a terminal", async () => {
    const { calls, element } = season();
    const stdout = Object.assign(new EventEmitter(), { columns: 80, rows: 24, frames: [] as string[], write(f: string) { this.frames.push(f); return true; } });
    const stdin = Object.assign(new EventEmitter(), { isTTY: false, setEncoding() {}, setRawMode() {}, resume() {}, pause() {}, ref() {}, unref() {}, read: () => null });
    const app = await settled(() => inkRender(element, { stdout: stdout as never, stdin: stdin as never, debug: true, patchConsole: false }));
    await settled(() => stdin.emit("data", "q"));
    expect(calls).toEqual([]);
    expect(plain(stdout.frames.at(-1)).split("\n")[0].trimEnd()).toBe("default-tournament seed 7");
    await settled(() => app.unmount());
  });
});
