import { asFloat64, type Frame } from "../../src/domain/frame.js";
import { imputed } from "../../src/data/benchmark-model.js";
import { fitLinear, predictLinear } from "../../src/data/least-squares.js";

/** Feature columns as a model sees them: the missing sentinel (or a non-finite value) becomes the middle bin. */
function seen(frame: Frame, features: string[]): Float64Array[] {
  return features.map((f) => imputed(frame.columns[f]));
}

/** Ridge regression of `target` on `features` (intercept unpenalised); a predictor over frames with those columns. */
export function fitRidge(train: Frame, features: string[], target: string, lambda: number): (f: Frame) => Float64Array {
  const model = fitLinear(seen(train, features), asFloat64(train.columns[target]), lambda);
  return (f: Frame) => predictLinear(model, seen(f, features));
}
