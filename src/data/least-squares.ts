import { Matrix, solve } from "ml-matrix";
import { centre, dot } from "../scoring/vector.js";

/**
 * A linear model fitted by (ridge-penalised) least squares on columns:
 * β minimises |y - β0 - Σ_j β_j x_j|² + λ·Σ_j β_j² (intercept unpenalised). Solved through the
 * centred normal equations, so memory is p×p however many rows there are.
 */
export interface LinearModel {
  coefficients: Float64Array;
  intercept: number;
}

export function fitLinear(columns: Float64Array[], y: Float64Array, lambda = 0): LinearModel {
  const p = columns.length;
  const n = y.length;
  // Each column centred once, not once per pair: every product, and so every sum, is the same to the bit.
  const centred = columns.map(() => new Float64Array(n));
  const means = columns.map((x, a) => centre(x, n, centred[a]));
  const yc = new Float64Array(n);
  const yMean = centre(y, n, yc);
  const xtx = Matrix.zeros(p, p);
  const xty = Matrix.zeros(p, 1);
  for (let a = 0; a < p; a++) {
    const xa = centred[a];
    for (let b = a; b < p; b++) {
      const xb = centred[b];
      const s = dot(xa, xb, n);
      xtx.set(a, b, s + (a === b ? lambda : 0));
      xtx.set(b, a, s + (a === b ? lambda : 0));
    }
    xty.set(a, 0, dot(xa, yc, n));
  }
  const coefficients = Float64Array.from(solve(xtx, xty).getColumn(0));
  let intercept = yMean;
  for (let a = 0; a < p; a++) intercept -= coefficients[a] * means[a];
  return { coefficients, intercept };
}

export function predictLinear(model: LinearModel, columns: Float64Array[]): Float64Array {
  const n = columns.length > 0 ? columns[0].length : 0;
  const out = new Float64Array(n).fill(model.intercept);
  columns.forEach((x, a) => {
    const w = model.coefficients[a];
    for (let i = 0; i < n; i++) out[i] += w * x[i];
  });
  return out;
}
