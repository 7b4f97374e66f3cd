import { parseUsdc } from "../../../domain/money.js";
import type { ServiceContext } from "../context.js";
import type { MachineSettings } from "./machine.js";

export const GPU_TIERS = ["CPU", "T4", "A10G", "A100"] as const;
export type GpuTier = (typeof GPU_TIERS)[number];

/** An event's compute grant: per enrolled agent, in dollars (decimal strings), and each tier's hourly rate. */
export interface ComputeSettings {
  budget_usd: string;
  rate_card_usd_per_hr: Record<GpuTier, string>;
  /** Real seconds a sandboxed training run may take (also its CPU limit); DEFAULT_WALL_SECONDS when absent. */
  wall_seconds?: number;
  /** The hosted machine's limits (machine/settings.ts), each defaulted where absent. */
  machine?: Partial<MachineSettings>;
}

/**
 * Real seconds a sandboxed training run may take when the scenario names none; a job's own
 * maximum runtime caps it further. Simulated time is not real time: this bounds the machine's work.
 */
export const DEFAULT_WALL_SECONDS = 900;

/** Basecamp's own hourly rates when a scenario names none. */
export const defaultRateCard: Record<GpuTier, string> = { CPU: "0.10", T4: "0.50", A10G: "1.10", A100: "1.79" };

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
