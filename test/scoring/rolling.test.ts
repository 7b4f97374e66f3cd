import { describe, expect, it } from "vitest";
import { rollingMean } from "../../src/scoring/rolling-mean.js";
import { rollingSharpe } from "../../src/scoring/rolling-sharpe.js";

describe("rollingMean and rollingSharpe", () => {
  it("give one value per full trailing window", () => {
    expect(rollingMean([1, 2, 3, 4], 2)).toEqual([1.5, 2.5, 3.5]);
    // window (1, 2): mean 1.5, std 0.5
    expect(rollingSharpe([1, 2, 3, 4], 2)).toEqual([3, 5, 7]);
    expect(rollingMean([0.01, 0.02, 0.06], 3)[0]).toBeCloseTo(0.03, 15);
  });

  it("give nothing for a series shorter than the window, 0 Sharpe for a flat window, and refuse a window that is not a count", () => {
    expect(rollingMean([1, 2], 3)).toEqual([]);
    expect(rollingSharpe([2, 2, 3], 2)).toEqual([0, 5]);
    expect(() => rollingMean([1], 0)).toThrow(/rolling window 0/);
    expect(() => rollingSharpe([1], 1.5)).toThrow(/rolling window 1.5/);
  });
});
