import { iso } from "../../domain/clock.js";
import { refuse } from "../../domain/errors.js";
import { standings, type Board, type RoundResult } from "../../scoring/standings.js";
import type { ServiceContext } from "../kernel/context.js";
import { scoringSettings } from "../kernel/setup.js";
import { eventSettings } from "./uploads.js";
import { isSealed, unsealsAt } from "./sealing.js";
import { Lane, latestScoredRuns } from "../../store/uploads.js";

export interface Entry extends RoundResult {
  agent_id: string;
}

/** Each model's latest finalised, scored run on a lane (and round window), in the order of those runs. */
export function latestRuns(ctx: ServiceContext, lane: Lane, window: string | null): Entry[] {
  const rows = latestScoredRuns(ctx.db, lane, window);
  const n_expeds = window === null ? 0 : ctx.world.deployment.event?.expeds_per_round ?? 1;
  return rows.map((r) => ({ ...r, round: window ?? "practice", n_expeds }));
}

/** Submitting is entering: each agent keeps its best `entry_limit` entries, in its own ranking order. */
function applyEntryLimit(entries: Entry[], limit: number): Entry[] {
  const byAgent = new Map<string, Entry[]>();
  for (const e of entries) byAgent.set(e.agent_id, [...(byAgent.get(e.agent_id) ?? []), e]);
  return [...byAgent.values()].flatMap((list) =>
    list.sort((a, b) => b.score - a.score || (a.model_id < b.model_id ? -1 : 1)).slice(0, limit),
  );
}

function roundEntries(ctx: ServiceContext, window: string): Entry[] {
  return applyEntryLimit(latestRuns(ctx, "round", window), eventSettings(ctx).entry_limit);
}

export type EventRoundBoard = Board & { window: string; sealed: boolean; unseals_at: string };

/** One round's board; sealed (no rows) until the next round opens. */
export function eventRoundBoard(ctx: ServiceContext, window: string): EventRoundBoard {
  if (!ctx.world.schedule.rounds.some((r) => r.window === window)) throw refuse("round_not_found");
  const sealed = isSealed(ctx, window);
  const entries = sealed ? [] : roundEntries(ctx, window);
  return { ...standings(entries, entries, "sum"), window, sealed, unseals_at: iso(unsealsAt(ctx, window)) };
}

/** Cumulative standings over the unsealed rounds, folded as the live settings say. */
export function eventStandings(ctx: ServiceContext): Board & { rounds_unsealed: string[] } {
  const open = unsealedRounds(ctx);
  const results = open.flatMap((w) => roundEntries(ctx, w));
  const models = [...new Map(results.map((r) => [r.model_id, { model_id: r.model_id, model: r.model }])).values()];
  return { ...standings(results, models, scoringSettings(ctx).aggregate), rounds_unsealed: open };
}

/** The practice board: display only, each model's latest practice score; never counts. */
export function practiceBoard(ctx: ServiceContext): Board & { display_only: true } {
  const entries = latestRuns(ctx, "practice", null);
  const board = standings(entries, entries, "sum");
  return { ...board, rank_metric: "practice_score", display_only: true };
}

/** The event's rounds whose results are out (the next round has opened, or the event is done), in order. */
export function unsealedRounds(ctx: ServiceContext): string[] {
  return ctx.world.schedule.rounds.map((r) => r.window).filter((w) => !isSealed(ctx, w));
}
