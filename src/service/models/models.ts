import { refuse } from "../../domain/errors.js";
import { serviceId } from "../../domain/ids.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import { laneOf } from "./lane.js";
import type { Scope } from "../kernel/deployment.js";
import type { ServiceContext } from "../kernel/context.js";
import { archiveModelRow, hasLabel, insertModel, liveModelByLabel, liveModelByName, liveModelNamesOf, liveModelOf, liveModelsOf, modelById, modelCount, modelOwners, type ModelRow } from "../../store/models.js";

/** A model as the service shows it. */
export interface ModelRecord {
  id: string;
  name: string;
  created_at: string;
  archived: boolean;
  /** The auto-submit switch: on by default for a model created on a tournament, off on an event. */
  auto_submit: boolean;
  /** True when the auto-submit lane will run the model (the switch on and a validated model file). */
  lane_active: boolean;
  /** Why the lane will or will not run it. */
  lane_note: string;
}

const MODEL_ID = /^mdl_[0-9a-f]{16}$/;
const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Who may register and archive models: tournament keys on a tournament, event keys on an event. */
function modelScopes(ctx: ServiceContext): Scope[] {
  return ctx.world.deployment.kind === "event" ? ["event", "practice"] : ["tournament"];
}

function record(ctx: ServiceContext, row: ModelRow): ModelRecord {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    archived: row.archived_at !== null,
    auto_submit: row.auto_submit === 1,
    ...laneOf(ctx, row.id, row.auto_submit === 1),
  };
}

/**
 * Registers a model. Idempotent by name: a name the caller already owns answers with the existing
 * record and `status: "already_exists"`; a name another agent holds is refused. On an event the
 * server names the model (`participant_…`); the caller's name is only a private label, idempotent
 * per caller, and later calls must use the returned name or id.
 */
export function createModel(
  ctx: ServiceContext,
  p: Principal,
  input: { name: string },
): ModelRecord & { status: "created" | "already_exists" } {
  requireScope(p, modelScopes(ctx), "create_model");
  if (!MODEL_NAME.test(input.name)) {
    throw refuse("validation_error", {
      message: `name: '${input.name}' must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit`,
    }, { extra: { loc: ["body", "name"] } });
  }
  const onEvent = ctx.world.deployment.kind === "event";
  return inTransaction(ctx.db, () => {
    const existing = onEvent ? liveModelByLabel(ctx.db, input.name, p.agent_id) : liveModelByName(ctx.db, input.name);
    if (existing) {
      if (existing.agent_id !== p.agent_id) throw refuse("model_name_taken", { name: input.name });
      return { ...record(ctx, existing), status: "already_exists" as const };
    }
    const n = modelCount(ctx.db);
    const id = serviceId("mdl", ctx.world.deployment.seed, "model", n + 1);
    const row: ModelRow = {
      id,
      agent_id: p.agent_id,
      name: onEvent ? `participant_${id.slice(4, 14)}` : input.name,
      created_at: ctx.clock.now(),
      archived_at: null,
      // Public facts: tournament create_model turns auto_submit on by default.
      auto_submit: onEvent ? 0 : 1,
    };
    insertModel(ctx.db, row, n + 1, onEvent ? input.name : null);
    appendEvent(ctx.db, row.created_at, "model.created", { id: row.id, name: row.name, agent: p.agent, label: onEvent ? input.name : undefined });
    return { ...record(ctx, row), status: "created" as const };
  });
}

export function getModels(ctx: ServiceContext, p: Principal): { models: ModelRecord[] } {
  return { models: liveModelsOf(ctx.db, p.agent_id).map((row) => record(ctx, row)) };
}

/** The names of the caller's active models, in creation order (what `GET /api/v1/status` lists). */
export function modelNames(ctx: ServiceContext, p: Principal): string[] {
  return liveModelNamesOf(ctx.db, p.agent_id);
}

/**
 * The caller's active model by id or by name. An id that is unknown or belongs to another agent is
 * `Model not found`; an unknown name points at create_model.
 */
export function resolveModel(ctx: ServiceContext, p: Principal, ref: string): ModelRecord {
  if (MODEL_ID.test(ref)) {
    const row = modelById(ctx.db, ref);
    if (!row || row.agent_id !== p.agent_id || row.archived_at !== null) throw refuse("model_not_found");
    return record(ctx, row);
  }
  const row = liveModelOf(ctx.db, ref, p.agent_id);
  if (!row) {
    if (hasLabel(ctx.db, ref, p.agent_id)) throw refuse("model_label_unknown", { label: ref });
    throw refuse("model_name_unknown", { name: ref });
  }
  return record(ctx, row);
}

/** Archives a model: it stops taking submissions and its name is free again. Its scores stay. */
export function archiveModel(ctx: ServiceContext, p: Principal, ref: string): ModelRecord {
  requireScope(p, modelScopes(ctx), "archive_model");
  return inTransaction(ctx.db, () => {
    const model = resolveModel(ctx, p, ref);
    const t = ctx.clock.now();
    archiveModelRow(ctx.db, model.id, t);
    appendEvent(ctx.db, t, "model.archived", { id: model.id, name: model.name });
    return { ...model, archived: true };
  });
}

/**
 * Every model with the agent behind it and its private label: the organiser's legend for boards
 * that show only server-given names (events). Not a participant-facing read.
 */
export function modelLegend(ctx: ServiceContext): { model: string; agent: string; label: string | null }[] {
  return modelOwners(ctx.db);
}
