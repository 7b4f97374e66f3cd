import { describe, expect, it } from "vitest";
import { signed } from "../../src/tui/standings-format.js";
import { formatStandings } from "../../src/tui/standings-text.js";
import { bigBoard, board } from "./fixtures.js";

describe("formatStandings", () => {
  it("prints an aligned table headed by the title and the rank metric", () => {
    expect(formatStandings(board, { title: "Standings after round 12" })).toBe(
      [
        "Standings after round 12",
        "ranked by total",
        "#  model      rounds     CORR     AIMC    NCORR    total",
        "1  alpha          10  +0.0213  +0.0123  +0.0301  +0.0647",
        "2  beta-long       9  -0.0052  +0.0011  -0.0120  -0.0161",
        "3  c              12  +0.0000  -0.0000  +0.2500  -0.1000",
        "",
      ].join("\n"),
    );
  });

  it("cuts the table at the limit and says how many rows are left out", () => {
    expect(formatStandings({ ...board, rank_metric: "corr" }, { limit: 1 })).toBe(
      ["ranked by corr", "#  model  rounds     CORR     AIMC    NCORR    total", "1  alpha      10  +0.0213  +0.0123  +0.0301  +0.0647", "… 2 more", ""].join("\n"),
    );
  });

  it("gives tied rows one rank and states the tie rule", () => {
    const lines = formatStandings(bigBoard(5), { limit: 4 }).split("\n");
    expect(lines.slice(2, 6).map((l) => l.split(" ")[0])).toEqual(["1", "1", "1", "4"]);
    expect(lines.slice(6)).toEqual(["… 1 more", "ties share a rank; the service orders them by model id", ""]);
    expect(formatStandings(board)).not.toContain("ties share");
  });

  it("says so when nobody is on the board", () => {
    expect(formatStandings({ rank_metric: "total", rows: [] })).toBe("ranked by total\nno standings yet\n");
  });
});

describe("signed", () => {
  it("shows 4 decimals and the sign", () => {
    expect([0.5, -0.5, 0, 0.00005, -1.23456].map(signed)).toEqual(["+0.5000", "-0.5000", "+0.0000", "+0.0001", "-1.2346"]);
  });
});
