import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { resolveModel, type ModelRecord } from "../models/models.js";
import { requireTournamentLane } from "../kernel/settings/auto-submit.js";
import { setAutoSubmitSwitch } from "../../store/models.js";

/**
 * `set_auto_submit`: switches a model's auto-submit lane on or off, answering with the model
 * record (its `lane_active` and `lane_note` after the change). Logged only when it changes
 * something; switching off does not touch entries the lane already filed.
 */
export function setAutoSubmit(ctx: ServiceContext, p: Principal, input: { model_id: string; enabled: boolean }): ModelRecord {
  requireTournamentLane(ctx);
  requireScope(p, ["tournament"], "set_auto_submit");
  return inTransaction(ctx.db, () => {
    const model = resolveModel(ctx, p, input.model_id);
    if (model.auto_submit === input.enabled) return model;
    setAutoSubmitSwitch(ctx.db, model.id, input.enabled);
    appendEvent(ctx.db, ctx.clock.now(), "model.auto_submit", { model_id: model.id, enabled: input.enabled });
    return resolveModel(ctx, p, model.id);
  });
}
