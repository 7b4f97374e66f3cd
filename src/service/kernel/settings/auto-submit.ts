import { refuse } from "../../../domain/errors.js";
import type { ServiceContext } from "../context.js";

/**
 * The tournament's auto-submit lane settings (scenario block `auto_submit`). Basecamp's own
 * numbers: the real service publishes only the accepted python versions' default (3.11-3.13).
 */
export interface AutoSubmitSettings {
  /** The uploaded model file's limits: larger files get 413 naming `max_bytes`; other versions are refused. */
  model_file: { max_bytes: number; python_versions: string[] };
  /** Seconds after an upload at which its sandbox predict has run (status validated or error). */
  validation_seconds: number;
  /** Seconds after a round opens at which the lane runs every active model for it. */
  auto_submit_delay_seconds: number;
  /** Wall-clock seconds one predict run may take before it is stopped and counts as failed. */
  predict_timeout_seconds: number;
}

export const defaultAutoSubmitSettings: AutoSubmitSettings = {
  model_file: { max_bytes: 10 * 1024 * 1024, python_versions: ["3.11", "3.12", "3.13"] },
  validation_seconds: 60,
  auto_submit_delay_seconds: 300,
  predict_timeout_seconds: 60,
};

export function autoSubmitSettings(ctx: ServiceContext): AutoSubmitSettings {
  return ctx.world.deployment.auto_submit ?? defaultAutoSubmitSettings;
}

/** The lane exists on a tournament deployment only (an event scores uploaded predictions files). */
export function requireTournamentLane(ctx: ServiceContext): void {
  if (ctx.world.deployment.kind !== "tournament") throw refuse("not_found", { what: "this deployment runs no tournament auto-submit lane" });
}
