import { KeptByBytes } from "../../src/domain/kept-by-bytes.js";
import { asFloat64, type Frame, type NumericColumn } from "../../src/domain/frame.js";
import { prepareExped, preparedBytes, scoreAgainst, type PreparedExped } from "../../src/scoring/exped.js";

/** The rows FN CORR is computed on: a contender's prediction on one exped, with the exped's truth and published features on its rows. */
export interface FnRows {
  ids: string[];
  prediction: Float64Array;
  target: Float64Array;
  features: NumericColumn[];
  /** The round's frame, when these are its rows in its order (the truth is then the same for every contender on it). */
  round?: Frame;
}

/** FN CORR's prepared truths, by round frame (up to 32 MiB of them). */
const kept = new KeptByBytes<Frame, PreparedExped>(32 * 1024 * 1024, preparedBytes);

/**
 * Feature-neutral CORR: NCORR's kernel (`scoreExped`) with every published feature as the core
 * set. Its truth side (ids in order, the core's least-squares fit) depends on the round alone, so
 * for rows that are a round's own in its order it is prepared once per round and kept: every
 * contender of a backtest, and every cell of a sweep-worker on the same world (whose rounds are
 * shared: walkWorld), scores against the same one. Prepared from the same values, it is the same
 * truth, so the numbers are `scoreExped`'s to the bit.
 */
export function fnCorr(rows: FnRows): number {
  const prepare = () => prepareExped({ ids: rows.ids, target: rows.target, benchmark: null, core: rows.features.map(asFloat64) });
  return scoreAgainst(rows.round ? kept.get(rows.round, prepare) : prepare(), rows.ids, rows.prediction).ncorr;
}
