import { defaultAutoSubmitSettings, type AutoSubmitSettings } from "../../../contract/deployment.js";
import { refuse } from "../../../domain/errors.js";
import type { ServiceContext } from "../context.js";

export { defaultAutoSubmitSettings, type AutoSubmitSettings } from "../../../contract/deployment.js";

export function autoSubmitSettings(ctx: ServiceContext): AutoSubmitSettings {
  return ctx.world.deployment.auto_submit ?? defaultAutoSubmitSettings;
}

/** The lane exists on a tournament deployment only (an event scores uploaded predictions files). */
export function requireTournamentLane(ctx: ServiceContext): void {
  if (ctx.world.deployment.kind !== "tournament") throw refuse("not_found", { what: "this deployment runs no tournament auto-submit lane" });
}
