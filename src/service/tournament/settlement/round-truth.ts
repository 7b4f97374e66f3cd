/** What a round's settlement scores: its entries, and the truth they are scored against. */
import { asFloat64 } from "../../../domain/frame.js";
import { DESIGNATED } from "../../../data/schema.js";
import type { ExpedTruth } from "../../../scoring/exped.js";
import type { Db } from "../../../store/db.js";
import type { World } from "../../kernel/deployment.js";
import { roundUniverse } from "../../../store/round-universe.js";
import { decodePredictions } from "../../rounds/submission-codec.js";

/** A round's entry as settlement reads it. */
export interface RoundEntry {
  model_id: string;
  model: string;
  predictions: Buffer;
}

/** The round's live `v1_designated` column, or null when its live benchmark has none. */
export function designatedBenchmark(world: World, roundIndex: number): Float64Array | null {
  const column = world.dataset.rounds[roundIndex - 1].benchmark.columns[DESIGNATED];
  return column ? asFloat64(column) : null;
}

/** The truth a round's entries are scored against: its live rows, realised target, `benchmark` and core features. */
export function roundTruth(world: World, roundIndex: number, benchmark: Float64Array): ExpedTruth {
  const live = world.dataset.rounds[roundIndex - 1];
  return {
    ids: live.frame.ids,
    target: live.target,
    benchmark,
    core: world.dataset.core_features.map((f) => asFloat64(live.frame.columns[f])),
  };
}

/** Entries as the scoring engine takes them: keyed by the round's published instruments. */
export function entrySubmissions(db: Db, exped: string, entries: RoundEntry[]): { ids: readonly string[]; prediction: Float64Array }[] {
  const { ids } = roundUniverse(db, exped);
  return entries.map((e) => ({ ids, prediction: decodePredictions(e.predictions) }));
}
