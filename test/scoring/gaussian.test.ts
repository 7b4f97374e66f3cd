import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gaussianise, normalQuantile } from "../../src/scoring/gaussian.js";

// Φ⁻¹ at the double nearest each p, solved to 17 digits with mpmath (findroot on ncdf, 50 digits).
const KNOWN: [number, number][] = [
  [1e-300, -37.047096299361199],
  [1e-20, -9.2623400897984076],
  [1e-10, -6.3613409024040562],
  [0.0001, -3.7190164854556806],
  [0.01, -2.3263478740408411],
  [0.025, -1.9599639845400542],
  [0.075, -1.4395314709384559],
  [0.1, -1.2815515655446004],
  [0.3, -0.52440051270804082],
  [0.5, 0],
  [0.6, 0.25334710313579974],
  [0.75, 0.67448975019608174],
  [0.9, 1.2815515655446006],
  [0.925, 1.4395314709384562],
  [0.975, 1.9599639845400539],
  [0.99, 2.3263478740408408],
  [0.999999, 4.7534243088170878],
];

describe("normalQuantile (AS241)", () => {
  it.each(KNOWN)("Φ⁻¹(%s) matches the 17-digit value to ~1e-15", (p, expected) => {
    expect(Math.abs(normalQuantile(p) - expected)).toBeLessThanOrEqual(2e-15 * Math.max(1, Math.abs(expected)));
  });

  it("is ±∞ at the ends and NaN outside [0, 1]", () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    expect(normalQuantile(-0.1)).toBeNaN();
    expect(normalQuantile(NaN)).toBeNaN();
  });

  it("is increasing", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-300, max: 1, noNaN: true }), fc.double({ min: 1e-300, max: 1, noNaN: true }), (a, b) => {
        fc.pre(a < b);
        expect(normalQuantile(a)).toBeLessThanOrEqual(normalQuantile(b));
      }),
    );
  });
});

describe("gaussianise", () => {
  it("maps ranks (ties averaged) through Φ⁻¹((rank - 0.5)/n)", () => {
    const x = Float64Array.of(3, 1, 3, 2);
    const out = new Float64Array(4);
    gaussianise(x, 4, out);
    // ranks 3.5, 1, 3.5, 2
    expect(Array.from(out)).toEqual([3 / 4, 0.5 / 4, 3 / 4, 1.5 / 4].map((u) => normalQuantile(u)));
    expect(out[0]).toBeCloseTo(0.67448975019608174, 15);
  });
});
