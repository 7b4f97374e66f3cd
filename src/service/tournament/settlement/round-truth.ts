/** What a round's settlement scores: its entries, and the truth they are scored against. */
import { asFloat64 } from "../../../domain/frame.js";
import { DESIGNATED } from "../../../data/schema.js";
import type { LiveRound } from "../../../data/generate.js";
import { KeptByBytes } from "../../../domain/kept-by-bytes.js";
import { prepareExped, preparedBytes, type ExpedTruth, type PreparedExped } from "../../../scoring/exped.js";
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

/** A live round's settlement side: its `v1_designated` column as float64 (null without one) and the truth against it, for the world's core features. */
interface RoundSide {
  core: readonly string[];
  benchmark: Float64Array | null;
  truth: ExpedTruth | null;
}

/** Budget of the round sides and of the prepared truths kept, each. */
const KEPT_BYTES = 32 * 1024 * 1024;

/**
 * Each live round's side, made once and kept with the round: a world's rounds never change, and a
 * sweep-worker's backtests settle the same rounds cell after cell (walkWorld).
 */
const sides = new KeptByBytes<LiveRound, RoundSide>(KEPT_BYTES, (s) => 8 * (s.benchmark?.length ?? 0) * (1 + s.core.length));

/** Each kept truth prepared for scoring (prepareExped), once. */
const prepared = new KeptByBytes<ExpedTruth, PreparedExped>(KEPT_BYTES, preparedBytes);

function sideOf(world: World, roundIndex: number): RoundSide {
  const live = world.dataset.rounds[roundIndex - 1];
  const core = world.dataset.core_features;
  const side = sides.get(live, () => {
    const column = live.benchmark.columns[DESIGNATED];
    const benchmark = column ? asFloat64(column) : null;
    return { core, benchmark, truth: benchmark && truthOf(live, core, benchmark) };
  });
  return side.core === core ? side : { core, benchmark: side.benchmark, truth: side.benchmark && truthOf(live, core, side.benchmark) };
}

function truthOf(live: LiveRound, core: readonly string[], benchmark: Float64Array): ExpedTruth {
  return { ids: live.frame.ids, target: live.target, benchmark, core: core.map((f) => asFloat64(live.frame.columns[f])) };
}

/** The round's live `v1_designated` column, or null when its live benchmark has none. */
export function designatedBenchmark(world: World, roundIndex: number): Float64Array | null {
  return sideOf(world, roundIndex).benchmark;
}

/** The truth a round's entries are scored against: its live rows, realised target, `benchmark` and core features. */
export function roundTruth(world: World, roundIndex: number, benchmark: Float64Array): ExpedTruth {
  const side = sideOf(world, roundIndex);
  return side.benchmark === benchmark && side.truth ? side.truth : truthOf(world.dataset.rounds[roundIndex - 1], world.dataset.core_features, benchmark);
}

/** `prepareExped(truth)`, kept for a truth roundTruth keeps (a sweep-worker's cells settle the same rounds). */
export function preparedRoundTruth(truth: ExpedTruth): PreparedExped {
  return prepared.get(truth, () => prepareExped(truth));
}

/** Entries as the scoring engine takes them: keyed by the round's published instruments. */
export function entrySubmissions(db: Db, exped: string, entries: RoundEntry[]): { ids: readonly string[]; prediction: Float64Array }[] {
  const { ids } = roundUniverse(db, exped);
  return entries.map((e) => ({ ids, prediction: decodePredictions(e.predictions) }));
}
