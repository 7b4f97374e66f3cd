import { rowsByExped, type Frame } from "../../src/domain/frame.js";
import { pearson } from "../../src/scoring/pearson.js";
import { uniformRanks } from "../../src/data/ranks.js";

/** Mean over `frame`'s expeds of the Spearman correlation of `prediction` with `target`. */
export function meanSpearman(frame: Frame, prediction: Float64Array, target: Float64Array): number {
  const groups = [...rowsByExped(frame).values()];
  const gather = (x: Float64Array, rows: number[]) => uniformRanks(Float64Array.from(rows, (i) => x[i]));
  return groups.reduce((s, rows) => s + pearson(gather(prediction, rows), gather(target, rows), rows.length), 0) / groups.length;
}
