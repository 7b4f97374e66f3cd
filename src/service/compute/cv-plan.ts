import { rowsByExped, type Frame } from "../../domain/frame.js";
import { CV_FOLDS } from "./estimate.js";

/** Expeds dropped from the fitting side on each side of a held-out fold. */
export const EMBARGO_EXPEDS = 1;
/** What the preset puts in place of a missing (NaN) cell; the −1 sentinel passes through as a value. */
export const FILL_VALUE = 0.0;

/** One CV fold: the rows a model is fitted on, and the expeds (with their rows) it is scored on. */
export interface Fold {
  /** 0-based, in time order. */
  fold: number;
  fit_rows: number[];
  held: { exped: string; rows: number[] }[];
}

/**
 * Exped-purged, embargoed CV folds over a train frame: its expeds in label (time) order are cut
 * into CV_FOLDS contiguous folds; each is held out in turn and the model fitted on the rest less
 * EMBARGO_EXPEDS expeds either side. A fold that holds nothing out or leaves nothing to fit on is
 * left out. Every kind's CV uses these folds, so every kind is scored on the same held-out expeds.
 */
export function cvFolds(train: Frame): Fold[] {
  const byExped = rowsByExped(train);
  const expeds = [...byExped.keys()].sort();
  const foldOf = (i: number) => Math.floor((i * CV_FOLDS) / expeds.length);
  const folds: Fold[] = [];
  for (let fold = 0; fold < CV_FOLDS; fold++) {
    const held = expeds.map((_, i) => i).filter((i) => foldOf(i) === fold);
    if (held.length === 0) continue;
    const lo = held[0] - EMBARGO_EXPEDS;
    const hi = held[held.length - 1] + EMBARGO_EXPEDS;
    const fitRows = expeds.flatMap((e, i) => (i < lo || i > hi ? (byExped.get(e) as number[]) : []));
    if (fitRows.length === 0) continue;
    folds.push({ fold, fit_rows: fitRows, held: held.map((i) => ({ exped: expeds[i], rows: byExped.get(expeds[i]) as number[] })) });
  }
  return folds;
}

/** Feature columns over `rows` as the preset sees them: NaN → FILL_VALUE. */
export function presetColumns(frame: Frame, features: string[], rows: number[]): Float64Array[] {
  return features.map((f) => {
    const col = frame.columns[f];
    return Float64Array.from(rows, (r) => (Number.isNaN(col[r]) ? FILL_VALUE : col[r]));
  });
}
