import { describe, expect, it } from "vitest";
import { clipLines, fitSeason } from "../../src/tui/season-fit.js";

describe("fitSeason", () => {
  it("shows everything when it fits", () => {
    expect(fitSeason({ height: 23, fixed: 5, boardRows: 10, logLines: 5, stakesLines: 0 })).toEqual({ standings: 10, log: 5, stakes: 0 });
  });

  it("cuts the log to a quarter and the standings to what is left, keeping a line for “… N more”", () => {
    expect(fitSeason({ height: 23, fixed: 6, boardRows: 20, logLines: 5, stakesLines: 0 })).toEqual({ standings: 12, log: 4, stakes: 0 });
    expect(fitSeason({ height: 23, fixed: 6, boardRows: 13, logLines: 5, stakesLines: 0 })).toEqual({ standings: 13, log: 4, stakes: 0 });
  });

  it("gives the stake table at most half of the free lines", () => {
    expect(fitSeason({ height: 23, fixed: 7, boardRows: 20, logLines: 0, stakesLines: 12 })).toEqual({ standings: 7, log: 0, stakes: 8 });
  });
});

describe("clipLines", () => {
  it("keeps what fits and says how many lines are left out", () => {
    expect(clipLines(["a", "b", "c"], 3)).toEqual(["a", "b", "c"]);
    expect(clipLines(["a", "b", "c", "d"], 3)).toEqual(["a", "b", "… 2 more"]);
    expect(clipLines(["a"], 0)).toEqual([]);
  });
});
