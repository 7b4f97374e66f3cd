import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coreFit, residualise } from "../../src/scoring/core-fit.js";
import { dot } from "../../src/scoring/vector.js";

const residualOf = (core: Float64Array[], rows: Int32Array, y: Float64Array) => {
  const fit = coreFit(core, rows, rows.length);
  const r = new Float64Array(rows.length);
  residualise(y, rows.length, fit, r);
  return { fit, r };
};

/** |xᵀr| relative to |x|·|y|: the residual must be orthogonal to the intercept and every feature. */
function expectOrthogonal(core: Float64Array[], rows: Int32Array, y: Float64Array, r: Float64Array) {
  const n = rows.length;
  for (const f of [new Float64Array(n).fill(1), ...core.map((c) => Float64Array.from(rows, (i) => c[i]))]) {
    const scale = Math.sqrt(dot(f, f, n) * dot(y, y, n));
    expect(Math.abs(dot(f, r, n))).toBeLessThanOrEqual(1e-12 * scale);
  }
}

describe("coreFit", () => {
  const n = 6;
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const a = Float64Array.of(1, 2, 3, 4, 5, 7);
  const b = Float64Array.of(0, 1, 0, 1, 1, 0);
  const y = Float64Array.of(0.3, -1.2, 0.8, 2, -0.4, 0.1);

  it("uses the normal equations when well posed, dropping all-zero and constant columns", () => {
    const core = [a, new Float64Array(n).fill(3), b, new Float64Array(n)];
    const { fit, r } = residualOf(core, rows, y);
    expect(fit.kind).toBe("normal");
    expect(fit.k).toBe(2);
    expectOrthogonal(core, rows, y, r);
  });

  it("falls back to an orthonormal basis for dependent columns, and both give the same residual", () => {
    const dependent = residualOf([a, b, a.map((v, i) => 2 * v - b[i])], rows, y);
    expect(dependent.fit.kind).toBe("orthonormal");
    expect(dependent.fit.k).toBe(3); // intercept, a, b
    const plain = residualOf([a, b], rows, y);
    expect(plain.fit.kind).toBe("normal");
    plain.r.forEach((v, i) => expect(Math.abs(v - dependent.r[i])).toBeLessThan(1e-13));
  });

  it("with more columns than rows, keeps a basis of n columns (the intercept and n - 1 features) and leaves no residual", () => {
    const wide = Array.from({ length: 3 * n }, (_, j) => Float64Array.from({ length: n }, (_, i) => Math.round(10 * Math.abs(Math.sin((i + 1) * (j + 3) * 12.9898)))));
    const { fit, r } = residualOf(wide, rows, y);
    expect(fit.kind).toBe("orthonormal");
    expect(fit.k).toBe(n);
    r.forEach((v) => expect(Math.abs(v)).toBeLessThan(1e-13));
  });

  it("leaves a residual orthogonal to the intercept and every feature over the chosen rows", () => {
    const value = fc.integer({ min: 0, max: 9 });
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: 12, maxLength: 12 }), { maxLength: 4 }),
        fc.array(fc.integer({ min: -24, max: 24 }).map((v) => v / 8), { minLength: 8, maxLength: 8 }),
        (cols, ys) => {
          const core = cols.map((c) => Float64Array.from(c));
          const rows = Int32Array.of(0, 2, 3, 5, 7, 8, 9, 11);
          const y = Float64Array.from(ys);
          expectOrthogonal(core, rows, y, residualOf(core, rows, y).r);
        },
      ),
    );
  });
});
