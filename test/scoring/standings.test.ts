import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { standings, type RoundResult } from "../../src/scoring/standings.js";

const models = ["m3", "m1", "m2", "m4"].map((id) => ({ model_id: id, model: `name-${id}` }));
const result = (model_id: string, round: string, score: number, n_expeds = 1): RoundResult => ({
  model_id,
  model: `name-${model_id}`,
  round,
  n_expeds,
  corr: score,
  aimc: score / 2,
  ncorr: 0,
  score,
});

const rounds = fc.array(
  fc.subarray(models.map((m) => m.model_id)).chain((entrants) =>
    fc.tuple(...entrants.map((id) => fc.tuple(fc.constant(id), fc.double({ min: -0.25, max: 0.25, noNaN: true }), fc.integer({ min: 1, max: 5 })))),
  ),
  { maxLength: 6 },
);
const toResults = (rs: [string, number, number][][]) => rs.flatMap((r, k) => r.map(([id, score, n]) => result(id, `r${k}`, score, n)));

describe("standings", () => {
  it("ranks by total, ties by model id, and lists models that never entered", () => {
    const board = standings([result("m1", "r1", 0.1), result("m2", "r1", 0.2), result("m3", "r1", 0.1), result("m1", "r2", -0.05)], models);
    expect(board.rank_metric).toBe("total_score");
    expect(board.rows.map((r) => [r.rank, r.model_id, r.rounds_scored])).toEqual([
      [1, "m2", 1],
      [2, "m3", 1],
      [3, "m1", 2],
      [4, "m4", 0],
    ]);
    expect(board.rows[2]).toMatchObject({ total: 0.05, corr: 0.025, aimc: 0.0125, ncorr: 0 });
    expect(board.rows[3]).toMatchObject({ total: 0, corr: 0, aimc: 0, ncorr: 0 });
  });

  it("with exped_weighted_mean, weights round scores by n_expeds", () => {
    const board = standings([result("m1", "r1", 0.2, 3), result("m1", "r2", -0.2, 1)], models, "exped_weighted_mean");
    expect(board.rank_metric).toBe("exped_weighted_mean_score");
    expect(board.rows.find((r) => r.model_id === "m1")!.total).toBeCloseTo(0.1, 15);
  });

  it("total equals the sum of the model's round scores, and ranks follow totals", () => {
    fc.assert(
      fc.property(rounds, (rs) => {
        const results = toResults(rs);
        const board = standings(results, models);
        for (const row of board.rows) {
          const own = results.filter((r) => r.model_id === row.model_id);
          expect(row.total).toBe(own.reduce((s, r) => s + r.score, 0));
          expect(row.rounds_scored).toBe(own.length);
        }
        board.rows.forEach((row, i) => {
          expect(row.rank).toBe(i + 1);
          if (i > 0) expect(board.rows[i - 1].total >= row.total).toBe(true);
        });
      }),
    );
  });

  it("adding a round nobody entered changes no rank, under either aggregate", () => {
    fc.assert(
      fc.property(rounds, fc.nat({ max: 6 }), (rs, at) => {
        const withEmpty = [...rs.slice(0, at), [], ...rs.slice(at)];
        for (const aggregate of ["sum", "exped_weighted_mean"] as const) {
          expect(standings(toResults(withEmpty), models, aggregate).rows.map((r) => r.model_id)).toEqual(
            standings(toResults(rs), models, aggregate).rows.map((r) => r.model_id),
          );
        }
      }),
    );
  });
});
