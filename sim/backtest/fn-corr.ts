import { asFloat64, type Frame, type NumericColumn } from "../../src/domain/frame.js";
import { prepareExped, scoreAgainst, type PreparedExped } from "../../src/scoring/exped.js";

/** The rows FN CORR is computed on: a contender's prediction on one exped, with the exped's truth and published features on its rows. */
export interface FnRows {
  ids: string[];
  prediction: Float64Array;
  target: Float64Array;
  features: NumericColumn[];
  /** The round's frame, when these are its rows in its order (the truth is then the same for every contender on it). */
  round?: Frame;
}

/** Bytes of prepared truths kept (their target and core columns); past it the oldest go first. */
const KEPT_BYTES = 32 * 1024 * 1024;
const kept = new Map<Frame, { prepared: PreparedExped; bytes: number }>();
let keptBytes = 0;

/**
 * Feature-neutral CORR: NCORR's kernel (`scoreExped`) with every published feature as the core
 * set. Its truth side (ids in order, the core's least-squares fit) depends on the round alone, so
 * for rows that are a round's own in its order it is prepared once per round and kept (up to
 * KEPT_BYTES): every contender of a backtest, and every cell of a sweep-worker on the same world
 * (whose rounds are shared: walkWorld), scores against the same one. Prepared from the same values,
 * it is the same truth, so the numbers are `scoreExped`'s to the bit.
 */
export function fnCorr(rows: FnRows): number {
  const prepare = () => prepareExped({ ids: rows.ids, target: rows.target, benchmark: null, core: rows.features.map(asFloat64) });
  return scoreAgainst(rows.round ? preparedOnce(rows.round, prepare) : prepare(), rows.ids, rows.prediction).ncorr;
}

function preparedOnce(round: Frame, prepare: () => PreparedExped): PreparedExped {
  const known = kept.get(round);
  if (known) return known.prepared;
  const prepared = prepare();
  const bytes = 8 * prepared.target.length * (1 + prepared.core.length);
  if (bytes > KEPT_BYTES) return prepared;
  for (const [frame, k] of kept) {
    if (keptBytes + bytes <= KEPT_BYTES) break;
    kept.delete(frame);
    keptBytes -= k.bytes;
  }
  kept.set(round, { prepared, bytes });
  keptBytes += bytes;
  return prepared;
}
