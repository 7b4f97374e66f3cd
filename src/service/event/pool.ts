import type { ServiceContext } from "../kernel/context.js";
import { countedUploadsOf } from "../../store/uploads.js";

/**
 * What is left of an agent's upload pool: the event's pool minus its round-lane runs that hold a
 * place (accepted, scoring, finalised). Failed and cancelled runs give their place back; practice
 * uploads never draw on it. null when the event has no cap.
 */
export function uploadsRemaining(ctx: ServiceContext, agentId: string): number | null {
  const pool = ctx.world.deployment.event?.upload_pool ?? null;
  if (pool === null) return null;
  return Math.max(0, pool - countedUploads(ctx, agentId));
}

export function countedUploads(ctx: ServiceContext, agentId: string): number {
  return countedUploadsOf(ctx.db, agentId);
}
