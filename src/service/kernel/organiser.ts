import { refuse } from "../../domain/errors.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import type { ServiceContext } from "./context.js";
import { scoringSettings, setScoringSettings, type ScoringSettingsRecord } from "./setup.js";

/** Refuses anyone but the scenario's organiser (clock control, live settings, faults). */
export function requireOrganiser(ctx: ServiceContext, key: string | undefined): void {
  if (key === undefined || key === "") throw refuse("missing_api_key");
  if (key !== ctx.world.deployment.organiser_key) throw refuse("organiser_key_required");
}

type ScoringChange = Partial<ScoringSettingsRecord>;

/** Changes the live scoring settings (an organiser action); rounds settled later use the new ones. */
export function changeScoring(ctx: ServiceContext, change: ScoringChange): ScoringSettingsRecord {
  if (change.clip !== undefined && !(change.clip > 0)) {
    throw refuse("validation_error", { message: `clip: must be a positive number (got ${change.clip})` }, { extra: { loc: ["body", "clip"] } });
  }
  return inTransaction(ctx.db, () => {
    const next = { ...scoringSettings(ctx), ...change };
    setScoringSettings(ctx, next);
    appendEvent(ctx.db, ctx.clock.now(), "scoring.changed", next);
    return next;
  });
}
