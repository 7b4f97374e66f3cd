import { scoreSubmissionsAside, worthScoringAside, type ExpedTerms } from "../../../scoring/exped.js";
import type { ServiceContext } from "../../kernel/context.js";
import type { RoundRow } from "../../../store/rounds.js";
import { roundEntries, type RoundEntry } from "../../../store/submissions.js";
import { roundUniverse } from "../../../store/round-universe.js";
import { designatedBenchmark, entrySubmissions, roundTruth } from "./round-truth.js";

/**
 * Starts scoring a round's entries as its window closes, on a worker thread while the service goes
 * on: no entry changes after the close, and the truth is the world's, so settlement (rounds later)
 * mostly finds its terms ready. Entries too few to be worth a worker (`entryCount` of them), or a round whose live
 * benchmark has no designated column, are left to settlement. Nothing of it reaches the store: it is
 * kept in the service's state until the round settles (ServiceState.scoredAhead).
 */
export function scoreAhead(ctx: ServiceContext, round: RoundRow, entryCount: number): void {
  // Every entry holds one prediction per instrument of the round: rounds too small for a worker
  // (a backtest's, every round) are told apart before any entry is read and decoded.
  if (!worthScoringAside(entryCount * roundUniverse(ctx.db, round.exped).ids.length)) return;
  const benchmark = designatedBenchmark(ctx.world, round.idx);
  if (benchmark === null) return;
  const entries = roundEntries(ctx.db, round.exped);
  const terms = scoreSubmissionsAside(roundTruth(ctx.world, round.idx, benchmark), entrySubmissions(ctx.db, round.exped, entries));
  if (terms === null) return;
  ctx.state.scoredAhead.set(round.exped, { benchmark, entries, terms: terms.catch(() => null) });
}

/**
 * What was scored ahead for a round that settles now, forgotten here: `termsFor` answers the terms
 * only for the same benchmark column and the same predictions in the same order (byte for byte),
 * else null. The engine is deterministic, so such terms are the ones settlement would compute.
 */
export function takeScoredAhead(ctx: ServiceContext, exped: string): { termsFor: (benchmark: Float64Array, entries: RoundEntry[]) => Promise<ExpedTerms[] | null> } | null {
  const ahead = ctx.state.scoredAhead.get(exped);
  if (!ahead) return null;
  ctx.state.scoredAhead.delete(exped);
  return {
    termsFor: async (benchmark, entries) =>
      benchmark === ahead.benchmark && samePredictions(ahead.entries, entries) ? ahead.terms : null,
  };
}

function samePredictions(a: RoundEntry[], b: RoundEntry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.predictions.equals(b[i].predictions));
}
