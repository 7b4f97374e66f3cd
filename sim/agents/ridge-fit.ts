import { Matrix, solve } from "ml-matrix";
import type { Frame } from "../../src/data/frame.js";
import { MISSING } from "../../src/data/schema.js";

/** Feature value a model sees: the missing sentinel becomes the middle bin, 2. */
const seen = (v: number): number => (v === MISSING || !Number.isFinite(v) ? 2 : v);

/**
 * Ridge regression of `target` on `features` plus an intercept: β = (XᵀX + λI)⁻¹ Xᵀy, the
 * intercept unpenalised. Returns a predictor over frames with the same feature columns.
 */
export function fitRidge(train: Frame, features: string[], target: string, lambda: number): (f: Frame) => Float64Array {
  const k = features.length + 1;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  const y = train.columns[target];
  const cols = features.map((f) => train.columns[f]);
  const row = new Float64Array(k);
  for (let i = 0; i < train.ids.length; i++) {
    if (!Number.isFinite(y[i])) continue;
    for (let j = 0; j < features.length; j++) row[j] = seen(cols[j][i]);
    row[k - 1] = 1;
    for (let a = 0; a < k; a++) {
      xty[a] += row[a] * y[i];
      for (let b = 0; b < k; b++) xtx[a * k + b] += row[a] * row[b];
    }
  }
  for (let j = 0; j < features.length; j++) xtx[j * k + j] += lambda;
  const a = new Matrix(k, k);
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) a.set(i, j, xtx[i * k + j]);
  const beta = solve(a, Matrix.columnVector(Array.from(xty))).to1DArray();
  return (f: Frame) => {
    const out = new Float64Array(f.ids.length);
    const fc = features.map((name) => f.columns[name]);
    for (let i = 0; i < out.length; i++) {
      let s = beta[k - 1];
      for (let j = 0; j < features.length; j++) s += beta[j] * seen(fc[j][i]);
      out[i] = s;
    }
    return out;
  };
}
