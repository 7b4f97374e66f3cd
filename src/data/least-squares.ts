import { Matrix, solve } from "ml-matrix";
import { mean } from "../scoring/vector.js";

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
  const means = columns.map((x) => mean(x, n));
  const yMean = mean(y, n);
  // Each column centred once, not once per pair: every product, and so every sum, is the same to the bit.
  const centred = columns.map((x, a) => centre(x, means[a], n));
  const yc = centre(y, yMean, n);
  const xtx = Matrix.zeros(p, p);
  const xty = Matrix.zeros(p, 1);
  for (let a = 0; a < p; a++) {
    const xa = centred[a];
    for (let b = a; b < p; b++) {
      const xb = centred[b];
      let s = 0;
      for (let i = 0; i < n; i++) s += xa[i] * xb[i];
      xtx.set(a, b, s + (a === b ? lambda : 0));
      xtx.set(b, a, s + (a === b ? lambda : 0));
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += xa[i] * yc[i];
    xty.set(a, 0, s);
  }
  const coefficients = Float64Array.from(solve(xtx, xty).getColumn(0));
  let intercept = yMean;
  for (let a = 0; a < p; a++) intercept -= coefficients[a] * means[a];
  return { coefficients, intercept };
}

/** `x[i] - m` for the first n values. */
function centre(x: Float64Array, m: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = x[i] - m;
  return out;
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
