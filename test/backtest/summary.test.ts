import { describe, expect, it } from "vitest";
import { expedDiagnostics, FN_CORR_MAX_WORK, predictedExpeds, type PredictedExped, type WalkedRound } from "../../sim/backtest/summary.js";
import type { WalkEntry } from "../../sim/backtest/walk.js";
import { scoreExped } from "../../src/scoring/exped.js";
import { asFloat64 } from "../../src/domain/frame.js";

/** An exped of `rows` rows and `features` features, values from a fixed linear congruential sequence. */
function exped(rows: number, features: number): PredictedExped {
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const column = () => Float64Array.from({ length: rows }, next);
  return {
    exped: "exped_0001",
    ids: Array.from({ length: rows }, (_, i) => `id${String(i).padStart(5, "0")}`),
    prediction: column(),
    target: column(),
    benchmark: column(),
    features: Array.from({ length: features }, () => Float64Array.from(column(), (v) => Math.floor(v * 5))),
  };
}

describe("expedDiagnostics", () => {
  it("gives FN CORR as NCORR's kernel with every feature as the core set", () => {
    const e = exped(200, 24);
    const ncorr = scoreExped({ ids: e.ids, target: e.target, benchmark: null, core: e.features.map(asFloat64), prediction: e.prediction }).ncorr;
    expect(expedDiagnostics(e, 0.2).fn_corr).toBe(ncorr);
  });

  it("leaves FN CORR out (null) on an exped of no more rows than features + 1 (they and the intercept span its rows), and still gives the rest", () => {
    const e = exped(31, 30);
    const d = expedDiagnostics(e, 0.2);
    expect(d.fn_corr).toBeNull();
    expect(typeof d.tb_corr).toBe("number");
    expect(expedDiagnostics(exped(32, 30), 0.2).fn_corr).not.toBeNull();
  });

  it("leaves FN CORR out (null) when its fit would cost more than FN_CORR_MAX_WORK, and still gives the rest", () => {
    const e = exped(200, Math.ceil(Math.sqrt(FN_CORR_MAX_WORK / 200)) + 1);
    const d = expedDiagnostics(e, 0.2);
    expect(d.fn_corr).toBeNull();
    expect(typeof d.tb_corr).toBe("number");
    expect(typeof d.designated_corr).toBe("number");
  });
});

describe("predictedExpeds", () => {
  const ids = ["a", "b", "c", "d"];
  const round: WalkedRound = {
    frame: { ids, exped: ids.map(() => "e1"), columns: { f: Int8Array.of(1, -1, 3, 4), g: Float32Array.of(0.5, 1.5, 2.5, 3.5) } },
    target: Float64Array.of(0.1, 0.2, 0.3, 0.4),
    benchmark: { ids: ["d", "c", "b", "a"], exped: ids.map(() => "e1"), columns: { v1_designated: Float64Array.of(4, 3, 2, 1) } },
    row: new Map(ids.map((id, i) => [id, i])),
  };
  const entry = (predicted: string[]): WalkEntry => ({
    ids: predicted,
    values: Float64Array.from(predicted, (_, i) => i / 10),
    row: { rank: 1, model_id: "m", model: "m", rounds_scored: 1, corr: 0, aimc: 0, ncorr: 0, total: 0 },
  });

  it("takes the truth, v1_designated and each feature (in its own type) at the predicted rows, in the prediction's order", () => {
    const [e] = predictedExpeds(["e1"], new Map([["e1", entry(["c", "a", "d"])]]), new Map([["e1", round]]), ["g", "f"]);
    expect(e.ids).toEqual(["c", "a", "d"]);
    expect([...e.target]).toEqual([0.3, 0.1, 0.4]);
    expect([...e.benchmark]).toEqual([3, 1, 4]);
    expect(e.features[0]).toEqual(Float32Array.of(2.5, 0.5, 3.5));
    expect(e.features[1]).toEqual(Int8Array.of(3, 1, 4));
  });

  it("reads the exped's own feature columns, uncopied, when the rows were predicted in the live split's order", () => {
    const [e] = predictedExpeds(["e1"], new Map([["e1", entry(ids)]]), new Map([["e1", round]]), ["f", "g"]);
    expect(e.features[0]).toBe(round.frame.columns.f);
    expect(e.features[1]).toBe(round.frame.columns.g);
  });

  it("leaves out the expeds the contender did not enter", () => {
    expect(predictedExpeds(["e1", "e2"], new Map([["e1", entry(ids)]]), new Map([["e1", round]]), ["f"]).map((e) => e.exped)).toEqual(["e1"]);
  });
});
