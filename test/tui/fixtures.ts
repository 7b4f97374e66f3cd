import type { Board } from "../../src/tui/board.js";

/** A small board, ranked by total, with a long name, a negative total and a tiny negative score. */
export const board: Board = {
  rank_metric: "total",
  rows: [
    { rank: 1, model_id: "m1", model: "alpha", rounds_scored: 10, corr: 0.0213, aimc: 0.01234, ncorr: 0.0301, total: 0.0647 },
    { rank: 2, model_id: "m2", model: "beta-long", rounds_scored: 9, corr: -0.0052, aimc: 0.0011, ncorr: -0.012, total: -0.0161 },
    { rank: 3, model_id: "m3", model: "c", rounds_scored: 12, corr: 0, aimc: -0.00004, ncorr: 0.25, total: -0.1 },
  ],
};
