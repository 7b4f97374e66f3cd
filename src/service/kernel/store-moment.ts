import { totalChanges, type Db } from "../../store/db.js";
import type { Clock } from "../../domain/clock.js";

/**
 * Where the clock and the store stand: the instant and the store's count of written rows (rolled-back
 * ones too, so no write is missed). A pass that depends only on the store and the instant finds the
 * same again until either has moved, so it need not run again before then.
 */
export interface Moment {
  now: number;
  changes: number;
}

export function momentNow(ctx: { clock: Clock; db: Db }): Moment {
  return { now: ctx.clock.now(), changes: totalChanges(ctx.db) };
}

/** Whether neither the clock nor the store has moved from `then` to `now` (a pass never made has). */
export function unmoved(then: Moment | undefined, now: Moment): boolean {
  return then !== undefined && then.now === now.now && then.changes === now.changes;
}
