import { buildPhase } from "../../../domain/cadence.js";
import { parseUsdc } from "../../../domain/money.js";
import { cadenceNow } from "../../kernel/deployment.js";
import type { ServiceContext } from "../../kernel/context.js";

/** An event's staking settings in micro, as the service applies them. */
export interface StakingTerms {
  starting_micro: number;
  min_micro: number;
  max_slots: number;
  stake_return_amplitude: number;
  threshold_micro: number;
  /** Epoch ms the staking contract is armed; the event's start when the scenario names none. */
  armed_at: number;
}

/** The event's staking terms; null when it has none configured (no starting stake). */
export function stakingTerms(ctx: ServiceContext): StakingTerms | null {
  const s = ctx.world.deployment.event?.staking;
  const starting = s ? (parseUsdc(s.starting_stake_usdc) as number) : 0;
  if (!s || starting === 0) return null;
  return {
    starting_micro: starting,
    min_micro: parseUsdc(s.min_stake_usdc) as number,
    max_slots: s.max_slots,
    stake_return_amplitude: s.stake_return_amplitude,
    threshold_micro: parseUsdc(s.payout_factor_threshold_usdc) as number,
    armed_at: s.armed_at ? Date.parse(s.armed_at) : buildPhase(ctx.world.schedule).start,
  };
}

/**
 * The window allocations are drafted for now: on the current shape each round is its own window,
 * drafted while it is open and locked as it closes; null in the build phase, a stake phase, a
 * boundary or once the event is done.
 */
export function draftWindow(ctx: ServiceContext): string | null {
  return cadenceNow(ctx).open_window;
}

/** After the last round closes no allocation can be drafted again. */
export function deadlinePassed(ctx: ServiceContext): boolean {
  const rounds = ctx.world.schedule.rounds;
  return ctx.clock.now() >= rounds[rounds.length - 1].close_at;
}

/** The 1-based index of a round window (`round_3` → 3). */
export function windowIndex(ctx: ServiceContext, window: string): number {
  return ctx.world.schedule.rounds.findIndex((r) => r.window === window) + 1;
}
