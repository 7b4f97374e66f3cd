import fc from "fast-check";
import { expect, it } from "vitest";
import { signedPower } from "../../src/scoring/power.js";

it("s(x) = sign(x)·|x|^1.5", () => {
  const out = new Float64Array(4);
  signedPower(Float64Array.of(4, -4, 0, 0.25), 4, out);
  expect(Array.from(out)).toEqual([8, -8, 0, 0.125]);
  fc.assert(
    fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
      const o = new Float64Array(1);
      signedPower(Float64Array.of(v), 1, o);
      const expected = Math.sign(v) * Math.pow(Math.abs(v), 1.5);
      expect(Math.abs(o[0] - expected)).toBeLessThanOrEqual(1e-15 * Math.abs(expected));
    }),
  );
});
