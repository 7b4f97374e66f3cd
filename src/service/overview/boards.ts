import { refuse } from "../../domain/errors.js";
import { standings, type Board, type RoundResult } from "../../scoring/standings.js";
import type { ServiceContext } from "../kernel/context.js";
import { eventRoundBoard, eventStandings, unsealedRounds } from "../event/event-boards.js";
import { roundByExped, settledCount, settledExpeds } from "../../store/rounds.js";
import { scoringSettings } from "../kernel/setup.js";
import { scoreContenders, scoreResults } from "../../store/scores.js";

function results(ctx: ServiceContext, exped?: string): RoundResult[] {
  // The tournament has one exped per round.
  return scoreResults(ctx.db, exped).map((r) => ({ ...r, n_expeds: 1 }));
}

/** Every model that is active or has a score: a model that never entered still stands, at 0. */
function contenders(ctx: ServiceContext): { model_id: string; model: string }[] {
  return scoreContenders(ctx.db);
}

/** Season standings over every settled round, aggregated as the live settings say. */
export function seasonStandings(ctx: ServiceContext): Board & { rounds_settled: number } {
  return { ...standings(results(ctx), contenders(ctx), scoringSettings(ctx).aggregate), rounds_settled: settledCount(ctx.db) };
}

/** One settled round's board. */
export function roundBoard(ctx: ServiceContext, exped: string): Board & { exped: string } {
  const round = roundByExped(ctx.db, exped);
  if (!round || round.status === "scheduled") throw refuse("round_not_found");
  const entered = results(ctx, exped);
  const models = entered.map((r) => ({ model_id: r.model_id, model: r.model }));
  return { ...standings(entered, models, "sum"), exped };
}

/** The deployment's standings, tournament or event, with how many rounds they cover. */
export function currentStandings(ctx: ServiceContext): Board & { rounds_settled: number } {
  if (ctx.world.deployment.kind === "event") {
    const { rounds_unsealed, ...board } = eventStandings(ctx);
    return { ...board, rounds_settled: rounds_unsealed.length };
  }
  return seasonStandings(ctx);
}

/** One settled round's board, tournament or event. */
export function settledRoundBoard(ctx: ServiceContext, round: string): Board {
  return ctx.world.deployment.kind === "event" ? eventRoundBoard(ctx, round) : roundBoard(ctx, round);
}

/**
 * The rounds the standings cover, in order (settled tournament rounds, or an event's unsealed
 * rounds), past the first `skip`: a replay asks after every step for those it has not seen, and
 * a tournament's are then read without listing the rounds before them.
 */
export function standingRoundsAfter(ctx: ServiceContext, skip: number): string[] {
  if (ctx.world.deployment.kind === "event") return unsealedRounds(ctx).slice(skip);
  return settledExpeds(ctx.db, skip);
}

/** How many rounds the standings cover (standingRoundsAfter's from none, a tournament's counted without listing them). */
export function standingRoundCount(ctx: ServiceContext): number {
  if (ctx.world.deployment.kind === "event") return unsealedRounds(ctx).length;
  return settledCount(ctx.db);
}
