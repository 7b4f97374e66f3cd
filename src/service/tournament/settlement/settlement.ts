import { DESIGNATED } from "../../../data/schema.js";
import { roundScore } from "../../../scoring/blend.js";
import { scoreSubmissions, type ExpedTruth } from "../../../scoring/exped.js";
import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { benchmarkWithheld } from "../../kernel/faults.js";
import { setRoundStatus, type RoundRow } from "../../../store/rounds.js";
import { roundEntries } from "../../../store/submissions.js";
import { designatedBenchmark, entrySubmissions, preparedRoundTruth, roundTruth } from "./round-truth.js";
import { takeScoredAhead } from "./scores-ahead.js";
import { scoringSettings } from "../../kernel/setup.js";
import { settleStakes } from "../staking/stake-settlement.js";
import { insertScores } from "../../../store/scores.js";

/**
 * Settles a round whose target has resolved: every entry's CORR, AIMC and NCORR against the
 * round's one exped, blended and clipped with the scoring settings in force now. A round whose live
 * benchmark has no `v1_designated` column, or whose entries overlap no benchmark row, does not
 * settle: no scores at all. Either way its locked stakes are paid (or returned) in the same
 * transaction, so a round never stands settled with its stakes still locked. Terms scored ahead
 * since the round closed (see `scoreAhead`) are used when they were scored on these very entries.
 */
export async function settleRound(ctx: ServiceContext, round: RoundRow, t: number): Promise<void> {
  const { world, db } = ctx;
  const ahead = takeScoredAhead(ctx, round.exped);
  const benchmark = benchmarkWithheld(ctx, round.idx) ? null : designatedBenchmark(world, round.idx);
  if (benchmark === null) {
    return unsettled(ctx, round, t, `the live benchmark has no ${DESIGNATED} column`);
  }
  const entries = roundEntries(db, round.exped);
  const terms =
    (await ahead?.termsFor(benchmark, entries)) ??
    (await scoreRound(roundTruth(world, round.idx, benchmark), entrySubmissions(db, round.exped, entries)));
  if (terms.some((x) => x.aimc === null)) {
    return unsettled(ctx, round, t, "no entry overlaps the designated benchmark");
  }
  const settings = scoringSettings(ctx);
  const results = entries.map((e, i) => {
    const x = terms[i];
    const aimc = x.aimc as number;
    return { model_id: e.model_id, model: e.model, n: x.n, corr: x.corr, aimc, ncorr: x.ncorr, score: roundScore({ corr: x.corr, aimc, ncorr: x.ncorr }, settings) };
  });
  inTransaction(db, () => {
    insertScores(db, round.exped, results);
    setRoundStatus(db, round.exped, "settled");
    appendEvent(db, t, "round.settled", { exped: round.exped, settings, results });
    settleStakes(ctx, round.exped, t);
  });
}

/** The entries scored against the round's truth, prepared once per truth kept (preparedRoundTruth) where they are scored here. */
function scoreRound(truth: ExpedTruth, subs: { ids: readonly string[]; prediction: Float64Array }[]) {
  return scoreSubmissions(truth, subs, { prepared: preparedRoundTruth(truth) });
}

function unsettled(ctx: ServiceContext, round: RoundRow, t: number, reason: string): void {
  inTransaction(ctx.db, () => {
    setRoundStatus(ctx.db, round.exped, "unsettled", reason);
    appendEvent(ctx.db, t, "round.unsettled", { exped: round.exped, reason });
    settleStakes(ctx, round.exped, t);
  });
}
