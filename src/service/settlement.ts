import { DESIGNATED } from "../data/schema.js";
import { roundScore } from "../scoring/blend.js";
import { scoreSubmissions, type ExpedTruth } from "../scoring/exped.js";
import { inTransaction } from "../store/db.js";
import { appendEvent } from "../store/event-log.js";
import type { ServiceContext } from "./deployment.js";
import { benchmarkWithheld } from "./faults.js";
import { setRoundStatus, type RoundRow } from "./round-repo.js";
import { roundUniverse } from "./round-universe.js";
import { scoringSettings } from "./setup.js";
import { settleStakes } from "./staking/stake-settlement.js";
import { decodePredictions } from "./submission-codec.js";

/**
 * Settles a round whose target has resolved: every entry's CORR, AIMC and NCORR against the
 * round's one exped, blended and clipped with the scoring settings in force now. A round whose live
 * benchmark has no `v1_designated` column, or whose entries overlap no benchmark row, does not
 * settle: no scores at all. Either way its locked stakes are paid (or returned) in the same
 * transaction, so a round never stands settled with its stakes still locked.
 */
export async function settleRound(ctx: ServiceContext, round: RoundRow, t: number): Promise<void> {
  const { world, db } = ctx;
  const live = world.dataset.rounds[round.idx - 1];
  const benchmark = benchmarkWithheld(ctx, round.idx)
    ? null
    : (live.benchmark.columns[DESIGNATED] ?? null);
  if (benchmark === null) {
    return unsettled(ctx, round, t, `the live benchmark has no ${DESIGNATED} column`);
  }
  const truth: ExpedTruth = {
    ids: live.frame.ids,
    target: live.target,
    benchmark,
    core: world.dataset.core_features.map((f) => live.frame.columns[f]),
  };
  const entries = db
    .prepare(
      `SELECT s.model_id, m.name AS model, s.predictions FROM submissions s JOIN models m ON m.id = s.model_id
       WHERE s.exped = ? ORDER BY s.model_id`,
    )
    .all(round.exped) as { model_id: string; model: string; predictions: Buffer }[];
  const { ids } = roundUniverse(db, round.exped);
  const terms = await scoreSubmissions(
    truth,
    entries.map((e) => ({ ids, prediction: decodePredictions(e.predictions) })),
  );
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
    const insert = db.prepare(
      "INSERT INTO scores (model_id, exped, n, corr, aimc, ncorr, score) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (const r of results) insert.run(r.model_id, round.exped, r.n, r.corr, r.aimc, r.ncorr, r.score);
    setRoundStatus(db, round.exped, "settled");
    appendEvent(db, t, "round.settled", { exped: round.exped, settings, results });
    settleStakes(ctx, round.exped, t);
  });
}

function unsettled(ctx: ServiceContext, round: RoundRow, t: number, reason: string): void {
  inTransaction(ctx.db, () => {
    setRoundStatus(ctx.db, round.exped, "unsettled", reason);
    appendEvent(ctx.db, t, "round.unsettled", { exped: round.exped, reason });
    settleStakes(ctx, round.exped, t);
  });
}
