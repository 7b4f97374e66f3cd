import { describe, expect, it } from "vitest";
import { expedDiagnostics, FN_CORR_MAX_WORK, type PredictedExped } from "../../sim/backtest/summary.js";
import { scoreExped } from "../../src/scoring/exped.js";

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
    const ncorr = scoreExped({ ids: e.ids, target: e.target, benchmark: null, core: e.features, prediction: e.prediction }).ncorr;
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
