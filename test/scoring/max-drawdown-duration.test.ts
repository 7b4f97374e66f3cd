import { describe, expect, it } from "vitest";
import { maxDrawdownDuration } from "../../src/scoring/max-drawdown-duration.js";

describe("maxDrawdownDuration", () => {
  it("counts the expeds from the peak to the recovery of the deepest drawdown", () => {
    // cumsum 1, 0.5, 0.8, 1.2: peak at 0, trough at 1, back above 1 at 3
    expect(maxDrawdownDuration([1, -0.5, 0.3, 0.4])).toBe(3);
  });

  it("runs to the last exped when the series never recovers, and starts at the last exped at the peak", () => {
    // cumsum 1, 1, 0.5, 0.7: the peak 1 is last reached at 1, the trough is 2, no recovery: 3 - 1
    expect(maxDrawdownDuration([1, 0, -0.5, 0.2])).toBe(2);
  });

  it("takes the first of two equally deep drawdowns, and is 0 without one", () => {
    // cumsum 1, 0, 1, 0, 1: two falls of 1; the first runs from 0 to its recovery at 2
    expect(maxDrawdownDuration([1, -1, 1, -1, 1])).toBe(2);
    expect(maxDrawdownDuration([0.1, 0.2, 0.3])).toBe(0);
    expect(maxDrawdownDuration([])).toBe(0);
  });
});
