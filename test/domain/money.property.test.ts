import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatUsdc, parseUsdc } from "../../src/domain/money.js";

describe("USDC amounts", () => {
  it("formatting then parsing gives back every non-negative micro amount", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (micro) => parseUsdc(formatUsdc(micro)) === micro));
  });

  it("parses decimal strings exactly, with no float on the way", () => {
    expect(parseUsdc("0.1")).toBe(100_000);
    expect(parseUsdc("2.5")).toBe(2_500_000);
    expect(parseUsdc("50")).toBe(50_000_000);
    expect(parseUsdc("0.000001")).toBe(1);
    expect(formatUsdc(-1)).toBe("-0.000001");
    expect(formatUsdc(2_500_000)).toBe("2.5");
  });

  it("refuses more than 6 decimals, signs, exponents and empty text", () => {
    for (const bad of ["1.0000001", "-1", "+1", "1e3", "", ".5", "1.", " 1", "NaN", "Infinity"]) expect(parseUsdc(bad)).toBeNull();
  });
});
