import { autoSubmitSettings } from "./settings/auto-submit.js";
import type { ServiceContext } from "./context.js";

/**
 * The deployment's upload limits in bytes, for a face that reads a caller's file before handing it
 * over (the MCP face): it reads no more than the lane takes. Null where the deployment has no such
 * lane, so the face reads nothing and the operation refuses with its own text.
 */
export interface FileLimits {
  event_model_file: number | null;
  event_predictions: number | null;
  auto_submit_model_file: number | null;
}

export function fileLimits(ctx: ServiceContext): FileLimits {
  const { event, kind } = ctx.world.deployment;
  return {
    event_model_file: event?.model_file.max_bytes ?? null,
    event_predictions: event?.predictions_max_bytes ?? null,
    auto_submit_model_file: kind === "tournament" ? autoSubmitSettings(ctx).model_file.max_bytes : null,
  };
}
