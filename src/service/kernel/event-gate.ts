import { buildPhase } from "../../domain/cadence.js";
import { refuse } from "../../domain/errors.js";
import { cadenceNow } from "./deployment.js";
import type { ServiceContext } from "./context.js";

/**
 * Whether the event takes work now. Before the build phase: 403 not started. Once `done`: 403
 * ended. The round lane (and the live split) also needs an open round: otherwise 409
 * `cadence_not_open` with `Retry-After`, the seconds until the next round opens (in the last round
 * boundary, until the event is done).
 */
export function requireEventOpen(ctx: ServiceContext, needsRound: boolean): void {
  requireEventStarted(ctx);
  const now = ctx.clock.now();
  const cadence = cadenceNow(ctx);
  if (cadence.phase === "done") throw refuse("hackathon_ended");
  if (!needsRound || !cadence.intake_fenced) return;
  // Until the next round opens; in the last boundary no round follows, so until `done` (then 403 ended).
  const next = ctx.world.schedule.rounds.find((r) => r.open_at > now);
  const wait = Math.max(1, next ? Math.ceil((next.open_at - now) / 1000) : (cadence.seconds_until_next_phase ?? 1));
  throw refuse("cadence_not_open", {}, {
    extra: { retry_after_seconds: wait, intake_fenced: true, phase: cadence.phase },
    headers: { "Retry-After": String(wait) },
  });
}

/** Whether the event has opened: its build phase has begun. */
export function eventStarted(ctx: ServiceContext): boolean {
  return ctx.clock.now() >= buildPhase(ctx.world.schedule).start;
}

/** Before the build phase (in `pre_event`, or before the clock's start): 403 `Your hackathon has not started yet`. */
export function requireEventStarted(ctx: ServiceContext): void {
  if (!eventStarted(ctx)) throw refuse("hackathon_not_started");
}
