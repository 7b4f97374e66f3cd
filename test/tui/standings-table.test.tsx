import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { addRound, NO_ROUNDS } from "../../src/tui/round-history.js";
import { rowStyle, StandingsTable } from "../../src/tui/standings-table.js";
import { formatStandings } from "../../src/tui/standings-text.js";
import { bigBoard, board, roundBoards } from "./fixtures.js";

const plain = (s: string | undefined): string => (s ?? "").replace(/\x1b\[[0-9;]*m/g, "");

describe("<StandingsTable>", () => {
  it("shows the plain-text table's lines under a legend of what the columns are", () => {
    const frame = plain(render(<StandingsTable board={{ ...board, rank_metric: "total_score" }} title="Standings" />).lastFrame()).split("\n");
    expect(frame.slice(0, 2)).toEqual(["Standings", "ranked by total = sum of round scores · CORR AIMC NCORR = per-round means"]);
    expect(frame.slice(2).map((l) => l.trimEnd())).toEqual(formatStandings(board).trimEnd().split("\n").slice(1));
  });

  it("puts the legend on two lines when one is too narrow, and names an unknown rank metric", () => {
    const frame = plain(render(<StandingsTable board={{ ...board, rank_metric: "exped_weighted_mean_score" }} />).lastFrame());
    expect(frame).toContain("ranked by total = exped-weighted mean of round scores\nCORR AIMC NCORR = per-round means");
    expect(plain(render(<StandingsTable board={board} />).lastFrame())).toContain("ranked by total · CORR AIMC NCORR");
  });

  it("honours the limit and states the tie rule under shared ranks", () => {
    const frame = plain(render(<StandingsTable board={bigBoard(6)} limit={4} />).lastFrame());
    expect(frame).toMatch(/\n1 {2}model-0 .*\n1 {2}model-1 .*\n1 {2}model-2 .*\n4 {2}model-3 /);
    expect(frame).not.toContain("model-4");
    expect(frame).toContain("… 2 more\nties share a rank; the service orders them by model id");
  });

  it("draws each model's round scores as a sparkline in the width left", () => {
    const big = bigBoard(5);
    const history = roundBoards(big).reduce(addRound, NO_ROUNDS);
    const frame = plain(render(<StandingsTable board={big} history={history} width={80} />).lastFrame()).split("\n");
    expect(frame[1]).toMatch(/total {2}round scores$/);
    expect(frame[2]).toMatch(/model-0 .* {2}▇█$/);
    expect(frame[5]).toMatch(/model-3 .* {2}·▂$/);
    const narrow = plain(render(<StandingsTable board={big} history={history} width={frame[1].indexOf("round scores") + 1} />).lastFrame());
    expect(narrow).toMatch(/model-0 .* {2}█$/m);
    expect(narrow).toMatch(/NCORR +total *$/m);
    expect(plain(render(<StandingsTable board={big} history={history} width={frame[1].indexOf("round scores") + 6} />).lastFrame())).toMatch(/total {2}scores$/m);
    expect(plain(render(<StandingsTable board={big} history={history} width={50} />).lastFrame())).not.toMatch(/[▁▂▃▄▅▆▇█·]/);
  });

  it("highlights the leaders (every one sharing rank 1) and dims negative totals", () => {
    expect(board.rows.map((r, i) => rowStyle(r, i + 1))).toEqual([
      { bold: true, color: "green" },
      { color: "red", dimColor: true },
      { color: "red", dimColor: true },
    ]);
    expect(rowStyle({ ...board.rows[1], total: 0.01 }, 2)).toEqual({});
    expect(rowStyle(board.rows[2], 1)).toEqual({ bold: true, color: "green" });
  });
});
