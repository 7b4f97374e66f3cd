import { describe, expect, it } from "vitest";
import { calmar } from "../../src/scoring/calmar.js";

describe("calmar", () => {
  it("is the per-exped mean over the max drawdown, null without a drawdown", () => {
    expect(calmar(0.01, 0.04)).toBe(0.25);
    expect(calmar(-0.02, 0.05)).toBeCloseTo(-0.4, 15);
    expect(calmar(0.01, 0)).toBeNull();
  });
});
