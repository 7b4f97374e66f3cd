import type { ServiceContext } from "../kernel/context.js";

/**
 * When a round's results are unsealed: as the next round opens, or for the last round as the event
 * is done. Until then its runs show their status but not their scores, and its board stays closed.
 */
export function unsealsAt(ctx: ServiceContext, window: string): number {
  const rounds = ctx.world.schedule.rounds;
  const i = rounds.findIndex((r) => r.window === window);
  if (i >= 0 && i + 1 < rounds.length) return rounds[i + 1].open_at;
  const phases = ctx.world.schedule.phases;
  return phases[phases.length - 1].start;
}

export function isSealed(ctx: ServiceContext, window: string | null): boolean {
  return window !== null && ctx.clock.now() < unsealsAt(ctx, window);
}
