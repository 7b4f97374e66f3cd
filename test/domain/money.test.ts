import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatUsdc, parseUsdc, parseUsdcMicro } from "../../src/domain/money.js";

describe("parseUsdcMicro", () => {
  it("reads decimal strings and numbers exactly in micro", () => {
    expect(parseUsdcMicro("2.5")).toBe(2_500_000n);
    expect(parseUsdcMicro(2.5)).toBe(2_500_000n);
    expect(parseUsdcMicro("0.000001")).toBe(1n);
    expect(parseUsdcMicro(0.1)).toBe(100_000n);
    expect(parseUsdcMicro(" 7 ")).toBe(7_000_000n);
    expect(parseUsdcMicro("98765432109876543210.5")).toBe(98765432109876543210500000n);
  });

  it("refuses anything but a positive finite decimal with at most 6 decimals", () => {
    for (const bad of ["", "1.", ".5", "1.0000001", "1e3", "-1", "+1", "0", "0.000000", "NaN", "Infinity", "1,5", 1e-7, -1, 0, Number.NaN, Infinity, null, undefined, [], 1n]) {
      expect(parseUsdcMicro(bad), String(bad)).toBeNull();
    }
  });

  it("reads back every whole micro amount written as a 6-decimal string", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 24n }), (m) => {
        const text = `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, "0")}`;
        expect(parseUsdcMicro(text)).toBe(m);
      }),
    );
  });
});

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
