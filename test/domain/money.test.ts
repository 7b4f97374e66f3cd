import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseUsdcMicro } from "../../src/domain/money.js";

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
