import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { rowStyle, StandingsTable } from "../../src/tui/standings-table.js";
import { formatStandings } from "../../src/tui/standings-text.js";
import { board } from "./fixtures.js";

const plain = (s: string | undefined): string => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");

describe("<StandingsTable>", () => {
  it("shows the same lines as the plain-text table", () => {
    const frame = plain(render(<StandingsTable board={board} title="Standings" />).lastFrame());
    expect(frame).toBe(formatStandings(board, { title: "Standings" }).trimEnd());
  });

  it("honours the limit", () => {
    const frame = plain(render(<StandingsTable board={board} limit={2} />).lastFrame());
    expect(frame).toContain("beta-long");
    expect(frame).not.toContain("  c  ");
    expect(frame).toContain("… 1 more");
  });

  it("highlights the leader and dims negative totals", () => {
    expect(board.rows.map(rowStyle)).toEqual([
      { bold: true, color: "green" },
      { color: "red", dimColor: true },
      { color: "red", dimColor: true },
    ]);
    expect(rowStyle({ ...board.rows[1], total: 0.01 })).toEqual({});
    expect(rowStyle({ ...board.rows[2], rank: 1 })).toEqual({ bold: true, color: "green" });
  });
});
