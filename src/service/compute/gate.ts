import { refuse } from "../../domain/errors.js";
import { requireScope, type Principal } from "../kernel/auth.js";
import { cadenceNow } from "../kernel/deployment.js";
import type { ServiceContext } from "../kernel/context.js";
import { requireEventStarted } from "../kernel/event-gate.js";
import { computePaused } from "../kernel/faults.js";
import { computeSettings, type ComputeSettings } from "../kernel/settings/compute.js";

/** Hosted compute belongs to an event's full entrants: event keys only. */
export function requireComputeScope(p: Principal, what: string): void {
  requireScope(p, ["event"], what);
}

/**
 * Whether a job may launch now, in this order: the event has started (403, the spec's not-started
 * text), is not over (403 not live), has a compute budget (403), and compute is not paused by an
 * administrator (503).
 */
export function requireComputeLive(ctx: ServiceContext): ComputeSettings {
  if (ctx.world.deployment.kind !== "event") throw refuse("compute_no_budget");
  requireEventStarted(ctx);
  const phase = cadenceNow(ctx).phase;
  if (phase === "done") throw refuse("compute_not_live", { phase });
  const settings = computeSettings(ctx);
  if (!settings) throw refuse("compute_no_budget");
  if (computePaused(ctx)) throw refuse("compute_paused");
  return settings;
}

