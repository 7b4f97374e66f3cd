import { describe, expect, it } from "vitest";
import { lag1Autocorrelation } from "../../src/scoring/autocorrelation.js";

describe("lag1Autocorrelation", () => {
  it("is pearson of the series with itself one exped later", () => {
    expect(lag1Autocorrelation([1, 2, 3, 4])).toBeCloseTo(1, 15);
    // x[:-1] = 0.01, 0.03, 0.02 and x[1:] = 0.03, 0.02, 0.04: deviations (-0.01, 0.01, 0), (0, -0.01, 0.01) → -1e-4 / 2e-4
    expect(lag1Autocorrelation([0.01, 0.03, 0.02, 0.04])).toBeCloseTo(-0.5, 14);
  });

  it("is 0 under 3 values or with a constant side", () => {
    expect(lag1Autocorrelation([1, 2])).toBe(0);
    expect(lag1Autocorrelation([1, 1, 1, 2])).toBe(0);
  });
});
