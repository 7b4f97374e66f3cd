import { describe, expect, it } from "vitest";
import { addRound, NO_ROUNDS, seriesOf } from "../../src/tui/round-history.js";
import { scaleOf, sparkline } from "../../src/tui/sparkline.js";
import { bigBoard, roundBoards } from "./fixtures.js";

describe("sparkline", () => {
  it("draws the lowest score ▁, the highest █ and a round not entered ·", () => {
    const scale = scaleOf([[-0.25, 0.25], [0, null]]);
    expect(scale).toEqual({ lo: -0.25, hi: 0.25 });
    expect(sparkline([-0.25, 0, 0.25, null, 0.1], scale)).toBe("▁▅█·▆");
  });

  it("draws a flat scale with the middle bar, and nothing for no rounds", () => {
    expect(sparkline([0.25, 0.25], scaleOf([[0.25, 0.25]]))).toBe("▄▄");
    expect(scaleOf([[null]])).toEqual({ lo: 0, hi: 0 });
    expect(sparkline([], { lo: 0, hi: 1 })).toBe("");
  });
});

describe("round history", () => {
  it("gathers each model's round scores in settling order, null for a round it missed", () => {
    const board = bigBoard(5);
    const history = roundBoards(board).reduce(addRound, NO_ROUNDS);
    expect(history.rounds).toBe(2);
    expect(seriesOf(history, "m00")).toEqual([0.25, 0.26]);
    expect(seriesOf(history, "m03")).toEqual([null, 0.37 / 2 + 0.01]);
    expect(seriesOf(history, "nobody")).toEqual([null, null]);
  });
});
