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

/** A season's board of `n` models: the first three tie at the top (their round scores clipped alike). */
export function bigBoard(n: number): Board {
  const rows = Array.from({ length: n }, (_, i) => {
    const total = i < 3 ? 0.5 : 0.4 - i / 100;
    return { rank: i + 1, model_id: `m${String(i).padStart(2, "0")}`, model: `model-${i}`, rounds_scored: 2, corr: 0.1, aimc: 0.01, ncorr: 0.05, total };
  });
  return { rank_metric: "total_score", rows };
}

/** Two round boards for `board`'s models: every model scores half its total each round, except m03 which misses the first. */
export function roundBoards(board: Board): Board[] {
  return [0, 1].map((round) => ({
    rank_metric: "total_score",
    rows: board.rows.filter((r) => round === 1 || r.model_id !== "m03").map((r) => ({ ...r, rounds_scored: 1, total: r.total / 2 + round / 100 })),
  }));
}
