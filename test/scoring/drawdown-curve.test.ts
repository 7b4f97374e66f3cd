import { describe, expect, it } from "vitest";
import { maxDrawdown } from "../../src/scoring/diagnostics.js";
import { drawdownCurve } from "../../src/scoring/drawdown-curve.js";

describe("drawdownCurve", () => {
  it("is cummax(cumsum) - cumsum, the peak starting at the first value", () => {
    const curve = drawdownCurve([0.02, -0.01, 0.03, -0.04]);
    [0, 0.01, 0, 0.04].forEach((d, i) => expect(curve[i]).toBeCloseTo(d, 15));
    expect(drawdownCurve([-1, -1])).toEqual([0, 1]);
  });

  it("reaches the max drawdown at its deepest point", () => {
    const x = [0.03, -0.02, 0.01, -0.05, 0.02, 0.04, -0.01];
    expect(Math.max(...drawdownCurve(x))).toBe(maxDrawdown(Float64Array.from(x)));
  });
});
