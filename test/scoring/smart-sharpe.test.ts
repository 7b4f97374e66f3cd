import { describe, expect, it } from "vitest";
import { autocorrelationPenalty } from "../../src/scoring/autocorrelation-penalty.js";
import { smartSharpe } from "../../src/scoring/smart-sharpe.js";

describe("smartSharpe", () => {
  it("divides the ddof-0 Sharpe by √(1 + 2·Σ ((n-i)/n)·ρ^i)", () => {
    // mean 0.025, std √1.25e-4, ρ = -0.5: k² = 1 + 2·(3/4·(-1/2) + 2/4·(1/4) + 1/4·(-1/8)) = 0.4375
    expect(smartSharpe([0.01, 0.03, 0.02, 0.04])).toBeCloseTo(0.025 / Math.sqrt(1.25e-4) / Math.sqrt(0.4375), 12);
  });

  it("equals the Sharpe when the series has no lag-1 autocorrelation, and shrinks it when the series trends", () => {
    const x = [0.02, -0.01, 0.02, -0.01, 0.02];
    const mean = 0.008;
    const std = Math.sqrt((3 * 0.012 ** 2 + 2 * 0.018 ** 2) / 5);
    expect(smartSharpe(x)).toBeCloseTo(mean / std / autocorrelationPenalty(-1, 5), 12);
    expect(autocorrelationPenalty(0, 30)).toBe(1);
    expect(autocorrelationPenalty(0.5, 30)).toBeGreaterThan(1);
  });

  it("is 0 for a constant or empty series and when the penalty is 0", () => {
    expect(smartSharpe([0.1, 0.1, 0.1])).toBe(0);
    expect(smartSharpe([])).toBe(0);
    // ρ = -1 over 2 values: k² = 1 + 2·(1/2)·(-1) = 0; fewer than 3 values give ρ = 0 though, so k is 1
    expect(autocorrelationPenalty(-1, 2)).toBe(0);
    expect(smartSharpe([1, -1])).toBe(0);
  });
});
