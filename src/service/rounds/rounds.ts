import { iso } from "../../domain/clock.js";
import { refuse } from "../../domain/errors.js";
import type { ServiceContext } from "../kernel/context.js";
import { allRounds, latestOpenedRound, openRound, type RoundRow } from "../../store/rounds.js";
import { roundUniverse } from "../../store/round-universe.js";

export interface RoundView {
  exped: string;
  index: number;
  status: RoundRow["status"];
  submission_window: "open" | "closed";
  open_at: string;
  close_at: string;
  resolves_at: string;
  universe_size: number;
}

function view(ctx: ServiceContext, r: RoundRow): RoundView {
  return {
    exped: r.exped,
    index: r.idx,
    status: r.status,
    submission_window: r.status === "open" ? "open" : "closed",
    open_at: iso(r.open_at),
    close_at: iso(r.close_at),
    resolves_at: iso(r.resolves_at),
    universe_size: ctx.world.dataset.rounds[r.idx - 1].frame.ids.length,
  };
}

/** The open round, else the latest that has opened (its window reads closed); 404 before any. */
export function currentRound(ctx: ServiceContext): RoundView {
  const r = openRound(ctx.db) ?? latestOpenedRound(ctx.db);
  if (!r) throw refuse("no_active_round");
  return view(ctx, r);
}

/**
 * Every round's window. `mode` says which product the deployment runs, as the status view does; a
 * tournament's answer also names its tournament, an event's claims none.
 */
export type ScheduleView = { mode: "tournament"; tournament: "futures"; rounds: RoundView[] } | { mode: "event"; rounds: RoundView[] };

export function schedule(ctx: ServiceContext): ScheduleView {
  const rounds = allRounds(ctx.db).map((r) => view(ctx, r));
  return ctx.world.deployment.kind === "event" ? { mode: "event", rounds } : { mode: "tournament", tournament: "futures", rounds };
}

/** The exact instrument ids of the open round. */
export function instruments(ctx: ServiceContext): { exped: string; instrument_ids: string[]; data_datestamp: string } {
  const r = openRound(ctx.db);
  if (!r) throw refuse("no_active_round");
  return {
    exped: r.exped,
    instrument_ids: [...roundUniverse(ctx.db, r.exped).ids],
    data_datestamp: iso(r.open_at).slice(0, 10).replaceAll("-", ""),
  };
}
