import { describe, expect, it } from "vitest";
import { reduceSeason, startSeason, type SeasonUpdate } from "../../src/tui/season-state.js";
import { bigBoard, roundBoards } from "./fixtures.js";

describe("reduceSeason", () => {
  it("folds progress, boards with their round history, log lines and the end", () => {
    const board = bigBoard(4);
    const [r1, r2] = roundBoards(board);
    const updates: SeasonUpdate[] = [
      { kind: "progress", now: "2026-01-05T16:00:00.000Z", phase: "closed", settled: 0, rounds: 12 },
      { kind: "settled", board, round: r1 },
      { kind: "settled", board },
      { kind: "settled", board, round: r2 },
      ...Array.from({ length: 60 }, (_, i) => ({ kind: "log", line: `line ${i}` }) as const),
      { kind: "done", board, digest: "abc", stakes: null },
    ];
    const state = updates.reduce(reduceSeason, startSeason(12));
    expect(state.progress).toEqual({ settled: 0, total: 12, phase: "closed", now: "2026-01-05T16:00:00.000Z" });
    expect(state.history.rounds).toBe(2);
    expect(state.log).toHaveLength(50);
    expect(state.log.at(-1)).toBe("line 59");
    expect([state.board, state.digest, state.stakes]).toEqual([board, "abc", null]);
    expect(startSeason(3).progress).toEqual({ settled: 0, total: 3, phase: "starting", now: "" });
  });
});
