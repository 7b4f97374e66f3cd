import { describe, expect, it } from "vitest";
import { maxDrawdown, seriesDiagnostics } from "../../src/scoring/diagnostics.js";

describe("seriesDiagnostics", () => {
  it("computes mean, population std, sharpe, drawdown, autocorrelation and benchmark correlation", () => {
    const d = seriesDiagnostics([0.02, -0.01, 0.03, -0.04, 0.01], [0.01, 0, 0.02, -0.03, 0]);
    expect(d.mean).toBeCloseTo(0.002, 15);
    // deviations 0.018, -0.012, 0.028, -0.042, 0.008 → Σd² = 0.00308, /5
    expect(d.std).toBeCloseTo(Math.sqrt(0.000616), 15);
    expect(d.sharpe).toBeCloseTo(0.002 / Math.sqrt(0.000616), 12);
    // cumsum 0.02, 0.01, 0.04, 0.00, 0.01 → peak 0.04, deepest fall 0.04
    expect(d.max_drawdown).toBeCloseTo(0.04, 15);
    expect(d.autocorrelation).toBeLessThan(0);
    expect(d.benchmark_corr).toBeGreaterThan(0.9);
  });

  it("drawdown follows cummax of the cumulative sum from its first value", () => {
    expect(maxDrawdown(Float64Array.of(-1, -1))).toBe(1);
    expect(maxDrawdown(Float64Array.of(1, 2, 3))).toBe(0);
  });

  it("gives 0 sharpe for a flat series and null benchmark_corr without a benchmark", () => {
    expect(seriesDiagnostics([0.1, 0.1])).toMatchObject({ std: 0, sharpe: 0, benchmark_corr: null });
    // mean(0.1, 0.1, 0.1) rounds to 0.10000000000000002: without the exact constancy test the std would be a trace, the Sharpe huge
    expect(seriesDiagnostics([0.1, 0.1, 0.1])).toMatchObject({ std: 0, sharpe: 0 });
  });
});
