import { iso } from "../../domain/clock.js";
import { refuse } from "../../domain/errors.js";
import { inTransaction } from "../../store/db.js";
import { appendEvent } from "../../store/event-log.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import type { ServiceContext } from "../kernel/context.js";
import { resolveModel } from "../models/models.js";
import { requireEventParticipant } from "./staking/staker.js";
import { replaceSelection, selectionOf } from "../../store/final-selections.js";

/** A held-out final window: the event's last `rounds` rounds, and when selecting for it closes. */
export interface FinalWindow {
  rounds: string[];
  max_selections: number;
  /** The first final round's opening: selections are final from then on. */
  closes_at: number;
}

/** The event's final window; null on a sealed-round event without one (its rounds are its boards). */
export function finalWindow(ctx: ServiceContext): FinalWindow | null {
  const settings = ctx.world.deployment.event?.final_window;
  if (!settings) return null;
  const rounds = ctx.world.schedule.rounds.slice(-settings.rounds);
  return { rounds: rounds.map((r) => r.window), max_selections: settings.max_selections, closes_at: rounds[0].open_at };
}

export type FinalSelectionView =
  | { applicable: false; reason: string }
  | {
      applicable: true;
      rounds: string[];
      max_selections: number;
      selection_open: boolean;
      selection_closes_at: string;
      selected: { model_id: string; model: string }[];
    };

/** The models an agent has selected for the final window, in the order it gave them. */
function selectedModels(ctx: ServiceContext, agentId: string): { model_id: string; model: string }[] {
  return selectionOf(ctx.db, agentId);
}

/** `get_final_selection`: `applicable: false` where no final window exists. */
export function getFinalSelection(ctx: ServiceContext, p: Principal): FinalSelectionView {
  requireEventParticipant(ctx, p, "get_final_selection");
  const w = finalWindow(ctx);
  if (!w) return { applicable: false, reason: "This event has no final window: its sealed rounds are its boards." };
  return {
    applicable: true,
    rounds: w.rounds,
    max_selections: w.max_selections,
    selection_open: ctx.clock.now() < w.closes_at,
    selection_closes_at: iso(w.closes_at),
    selected: selectedModels(ctx, p.agent_id),
  };
}

/**
 * `set_final_selection`: replaces the caller's selection (an empty list clears it) while the
 * selection window is open, that is until the first final round opens. Afterwards 409
 * `selection_window_closed`; the selection made before then stands.
 */
export function setFinalSelection(ctx: ServiceContext, p: Principal, models: string[]): FinalSelectionView {
  requireEventParticipant(ctx, p, "set_final_selection");
  requireScope(p, ["event"], "set_final_selection");
  const w = finalWindow(ctx);
  if (!w) throw refuse("no_final_window");
  if (ctx.clock.now() >= w.closes_at) throw refuse("selection_window_closed", { closed_at: iso(w.closes_at) });
  if (models.length > w.max_selections) throw refuse("too_many_selections", { max_selections: w.max_selections, n: models.length });
  const resolved = models.map((ref) => resolveModel(ctx, p, ref));
  const seen = new Set<string>();
  for (const m of resolved) {
    if (seen.has(m.id)) throw refuse("duplicate_selection", { model: m.name });
    seen.add(m.id);
  }
  inTransaction(ctx.db, () => {
    replaceSelection(ctx.db, p.agent_id, resolved.map((m) => m.id));
    appendEvent(ctx.db, ctx.clock.now(), "final.selected", { agent: p.agent, models: resolved.map((m) => m.id) });
  });
  return getFinalSelection(ctx, p);
}
