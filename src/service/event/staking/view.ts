import { iso } from "../../../domain/clock.js";
import type { Principal } from "../../kernel/auth.js";
import { cadenceNow } from "../../kernel/deployment.js";
import type { ServiceContext } from "../../kernel/context.js";
import { balanceUnavailable } from "../../kernel/faults.js";
import { allocationRecord, type AllocationRecord } from "./allocations.js";
import { balanceOf, spendableFor } from "./balance.js";
import { requireEventParticipant } from "./staker.js";
import { deadlinePassed, draftWindow, stakingTerms, windowIndex } from "./terms.js";
import { allocationsIn, settlementsIn, stakeWindow } from "../../../store/event-stakes.js";

export interface SettlementRecord {
  model_id: string;
  model: string;
  amount_micro: number;
  /** The model's round score the payout was computed on; null when it had none. */
  score: number | null;
  payout_micro: number;
  settled_at: string;
  note: string | null;
}

export interface StakeWindowView {
  window: string;
  stake_return_amplitude: number;
  /** Frozen when the window locks; null before. */
  payout_factor: number | null;
  allocations: AllocationRecord[];
  settlements: SettlementRecord[];
}

/**
 * The `get_event_staking` block. Every amount is integer micro-USDC. A balance that cannot be read
 * is null with `balance_unavailable: true`, never 0.
 */
export interface EventStakingView {
  money_event: boolean;
  staking_armed: boolean;
  phase: string;
  stake_window_open: boolean;
  draft_window: string | null;
  deadline_passed: boolean;
  max_slots: number | null;
  min_stake_micro: number | null;
  principal_micro: number | null;
  settled_micro: number | null;
  net_micro: number | null;
  locked_micro: number | null;
  /**
   * What a new draft in the draft window can take; outside one, what the next window's drafts could
   * take as it stands (the balance minus unsettled locks). Null only when the balance is.
   */
  spendable_micro: number | null;
  balance_unavailable: boolean;
  windows: StakeWindowView[];
}

/** The caller's event staking: terms, the draft window, its deposit, and per round its allocations and settlements. */
export function eventStaking(ctx: ServiceContext, p: Principal): EventStakingView {
  requireEventParticipant(ctx, p, "get_event_staking");
  const terms = stakingTerms(ctx);
  const windows = terms ? ctx.world.schedule.rounds.map((r) => windowView(ctx, p, r.window, terms.stake_return_amplitude)) : [];
  return { ...stakingHead(ctx, p), windows };
}

/** The money fields when there is no money to show: no staking, or a balance that cannot be read. */
const NO_MONEY = { principal_micro: null, settled_micro: null, net_micro: null, locked_micro: null, spendable_micro: null };

/**
 * The block without its per-round windows, unchecked: `get_started` shows it to every key on an
 * event, and reads no allocation or settlement to do so.
 */
export function stakingHead(ctx: ServiceContext, p: Principal): Omit<EventStakingView, "windows"> {
  const terms = stakingTerms(ctx);
  const phase = cadenceNow(ctx).phase;
  const window = draftWindow(ctx);
  const base = { phase, draft_window: terms ? window : null, stake_window_open: terms !== null && window !== null, deadline_passed: deadlinePassed(ctx) };
  if (!terms) return { money_event: false, staking_armed: false, ...base, max_slots: null, min_stake_micro: null, ...NO_MONEY, balance_unavailable: false };
  const unavailable = window !== null && balanceUnavailable(ctx, windowIndex(ctx, window));
  const balance = balanceOf(ctx, terms, p.agent_id);
  const money = unavailable ? NO_MONEY : { ...balance, spendable_micro: spendableFor(ctx, balance, p.agent_id, window, null) };
  return {
    money_event: true,
    staking_armed: ctx.clock.now() >= terms.armed_at,
    ...base,
    max_slots: terms.max_slots,
    min_stake_micro: terms.min_micro,
    ...money,
    balance_unavailable: unavailable,
  };
}

function windowView(ctx: ServiceContext, p: Principal, window: string, amplitude: number): StakeWindowView {
  const locked = stakeWindow(ctx.db, window);
  const allocations = allocationsIn(ctx.db, p.agent_id, window);
  const settlements = settlementsIn(ctx.db, p.agent_id, window);
  return {
    window,
    stake_return_amplitude: locked?.stake_return_amplitude ?? amplitude,
    payout_factor: locked?.payout_factor ?? null,
    allocations: allocations.map((a) => allocationRecord(a, a.model)),
    settlements: settlements.map((s) => ({ ...s, settled_at: iso(s.settled_at) })),
  };
}
