import { describe, expect, it } from "vitest";
import { displayRanks, hasTies } from "../../src/tui/display-ranks.js";
import { bigBoard, board } from "./fixtures.js";

describe("displayRanks", () => {
  it("gives equal totals one rank and skips the ranks they take (1, 1, 1, 4 …)", () => {
    const rows = bigBoard(6).rows;
    expect(displayRanks(rows)).toEqual([1, 1, 1, 4, 5, 6]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(hasTies(rows)).toBe(true);
  });

  it("ties only equal totals, wherever they fall", () => {
    const totals = [0.3, 0.2, 0.2, 0.1, 0.1, 0.1, -0.2];
    const rows = totals.map((total, i) => ({ ...board.rows[0], model_id: `m${i}`, rank: i + 1, total }));
    expect(displayRanks(rows)).toEqual([1, 2, 2, 4, 4, 4, 7]);
    expect(displayRanks(board.rows)).toEqual([1, 2, 3]);
    expect(hasTies(board.rows)).toBe(false);
    expect(displayRanks([])).toEqual([]);
  });
});
