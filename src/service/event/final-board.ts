import { iso } from "../../domain/clock.js";
import { refuse } from "../../domain/errors.js";
import { standings, type Board } from "../../scoring/standings.js";
import type { ServiceContext } from "../kernel/context.js";
import { scoringSettings } from "../kernel/setup.js";
import { latestRuns } from "./event-boards.js";
import { finalWindow } from "./final-selection.js";
import { isSealed, unsealsAt } from "./sealing.js";
import { selectedModels } from "../../store/final-selections.js";

export type FinalBoard = Board & { window: "final"; rounds: string[]; sealed: boolean; unseals_at: string };

/**
 * The held-out final board: every model its agent selected before the final rounds opened, and no
 * other, scored over those rounds and folded as the live settings say (a selected model that
 * entered no final round has total 0). Sealed until the last final round
 * unseals (the event is done).
 */
export function finalBoard(ctx: ServiceContext): FinalBoard {
  const w = finalWindow(ctx);
  if (!w) throw refuse("not_found", { what: "final board (this event has no final window)" });
  const last = w.rounds[w.rounds.length - 1];
  const sealed = isSealed(ctx, last);
  const models = sealed
    ? []
    : selectedModels(ctx.db);
  const selected = new Set(models.map((m) => m.model_id));
  const results = w.rounds.flatMap((round) => latestRuns(ctx, "round", round).filter((e) => selected.has(e.model_id)));
  return { ...standings(results, models, scoringSettings(ctx).aggregate), window: "final", rounds: w.rounds, sealed, unseals_at: iso(unsealsAt(ctx, last)) };
}
