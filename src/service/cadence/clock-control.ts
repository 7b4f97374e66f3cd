import { iso } from "../../domain/clock.js";
import type { CadenceState } from "../../domain/cadence.js";
import { refuse } from "../../domain/errors.js";
import { advanceRounds } from "./cadence-steps.js";
import { cadenceNow } from "../kernel/deployment.js";
import type { ServiceContext } from "../kernel/context.js";
import { nextResolution } from "../../store/rounds.js";
import type { Db } from "../../store/db.js";
import { lastEventInstant } from "../../store/event-log.js";

/**
 * The organiser's hold on a served clock: `manual` moves only when advanced; `realtime` runs at
 * `speed` times the wall clock and can also be jumped forward.
 */
export interface ClockControl {
  mode: "manual" | "realtime";
  speed: number;
  advance(ms: number): void;
  /** Realtime only: hold the clock still, or let it run on. */
  pause?(): void;
  resume?(): void;
}

/** How far to move: a number of seconds, to the end of the current phase, or to an instant. */
export type AdvanceRequest = { seconds: number } | { to: "next_phase" } | { until: string };

export interface ClockView {
  now: string;
  mode: ClockControl["mode"];
  speed: number;
  paused: boolean;
  cadence: CadenceState;
}

export interface AdvanceResult {
  now: string;
  cadence: CadenceState;
  transitions: { kind: "open" | "close" | "settle"; exped: string; t: string }[];
}

export function clockView(ctx: ServiceContext, control: ClockControl): ClockView {
  return { now: iso(ctx.clock.now()), mode: control.mode, speed: control.speed, paused: ctx.clock.paused?.() ?? false, cadence: cadenceNow(ctx) };
}

/** Pauses or resumes a realtime clock; a manual clock moves only when advanced, so it is refused. */
export function holdClock(ctx: ServiceContext, control: ClockControl, hold: boolean): ClockView {
  if (!control.pause || !control.resume) throw refuse("clock_not_realtime");
  if (hold) control.pause();
  else control.resume();
  return clockView(ctx, control);
}

/** The last instant the clock may show: a four-digit year, so every instant it serves is a plain ISO date. */
export const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The instant an advance request asks for: never before now, never after LAST_INSTANT. */
export function advanceTarget(ctx: ServiceContext, request: AdvanceRequest): number {
  const now = ctx.clock.now();
  let t: number;
  let field: string;
  if ("seconds" in request) {
    t = now + Math.round(request.seconds * 1000);
    field = "seconds";
  } else if ("to" in request) {
    const cadence = cadenceNow(ctx);
    if (cadence.phase_ends_at !== null) return Date.parse(cadence.phase_ends_at);
    // The last phase runs forever, but rounds still resolve in it: each resolution is the next stop.
    const resolves = nextResolution(ctx.db, now);
    if (resolves === null) throw refuse("clock_no_next_phase", { phase: cadence.phase });
    return resolves;
  } else {
    t = Date.parse(request.until);
    field = "until";
  }
  if (!Number.isFinite(t)) {
    throw refuse("validation_error", { message: `${field}: expected a finite duration or an ISO instant` }, { extra: { loc: ["body", field] } });
  }
  if (t > LAST_INSTANT) {
    const message = `${field}: the clock can go no later than ${iso(LAST_INSTANT)}`;
    throw refuse("validation_error", { message }, { extra: { loc: ["body", field] } });
  }
  if (t < now) throw refuse("clock_backwards", { until: iso(t), now: iso(now) }, { extra: { loc: ["body", field] } });
  return t;
}

/**
 * Moves the clock forward to `t` (an advanceTarget), or nowhere when a running clock is already
 * past it, and applies every round transition that falls due on the way.
 */
export async function advanceClockTo(ctx: ServiceContext, control: ClockControl, t: number): Promise<AdvanceResult> {
  control.advance(Math.max(0, t - ctx.clock.now()));
  const steps = await advanceRounds(ctx);
  return {
    now: iso(ctx.clock.now()),
    cadence: cadenceNow(ctx),
    transitions: steps.map((s) => ({ kind: s.kind, exped: s.round.exped, t: iso(s.t) })),
  };
}

/** Where a served clock starts: the season's start, or the last logged instant of a resumed store. */
export function resumeInstant(db: Db, seasonStart: number): number {
  const t = lastEventInstant(db);
  return Math.max(seasonStart, t ?? seasonStart);
}
