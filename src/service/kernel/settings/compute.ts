import { defaultRateCard, type ComputeSettings, type GpuTier } from "../../../contract/deployment.js";
import { parseUsdc } from "../../../domain/money.js";
import type { ServiceContext } from "../context.js";

export { defaultRateCard, GPU_TIERS, type ComputeSettings, type GpuTier } from "../../../contract/deployment.js";

/**
 * Real seconds a sandboxed training run may take when the scenario names none; a job's own
 * maximum runtime caps it further. Simulated time is not real time: this bounds the machine's work.
 */
export const DEFAULT_WALL_SECONDS = 900;

/** The event's compute settings; null when the event has no compute budget (no block, or a grant under a cent). */
export function computeSettings(ctx: ServiceContext): ComputeSettings | null {
  const compute = ctx.world.deployment.event?.compute;
  return compute && usdCents(compute.budget_usd) > 0 ? compute : null;
}

/** The rate card in force: the event's, or the defaults (a dry run prices a job whatever compute's state). */
export function rateCard(ctx: ServiceContext): Record<GpuTier, string> {
  return computeSettings(ctx)?.rate_card_usd_per_hr ?? defaultRateCard;
}

/** A dollar amount (decimal string) in whole cents, rounded down: micro-USDC / 10 000. */
export function usdCents(text: string): number {
  return Math.floor((parseUsdc(text) as number) / 10_000);
}

/** A tier's rate in micro-USDC per hour. */
export function rateMicroPerHour(ctx: ServiceContext, gpu: GpuTier): number {
  return parseUsdc(rateCard(ctx)[gpu]) as number;
}
