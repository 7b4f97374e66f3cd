import { iso } from "../../../domain/clock.js";
import { refuse } from "../../../domain/errors.js";
import { formatUsdc, parseUsdc } from "../../../domain/money.js";
import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { Principal } from "../../kernel/auth.js";
import { cadenceNow } from "../../kernel/deployment.js";
import type { ServiceContext } from "../../kernel/context.js";
import { balanceUnavailable } from "../../kernel/faults.js";
import { resolveModel, type ModelRecord } from "../../models/models.js";
import { balanceOf, spendableFor } from "./balance.js";
import { requireStaker } from "./staker.js";
import { deadlinePassed, draftWindow, windowIndex, type StakingTerms } from "./terms.js";
import { allocationOf, deleteAllocation, draftAllocation, hasRoundRun, otherAllocations, type AllocationRow } from "../../../store/event-stakes.js";

export interface AllocationInput {
  model: string;
  /** A decimal string: a JSON number is refused before it gets here. */
  amount_usdc: string;
  /** A guard: when given it must name the window being drafted. */
  window?: string;
}

export interface AllocationRecord {
  model_id: string;
  model: string;
  window: string;
  amount_micro: number;
  status: "draft" | "locked";
  drafted_at: string;
  locked_at: string | null;
}


function allocationRow(ctx: ServiceContext, modelId: string, window: string): AllocationRow | undefined {
  return allocationOf(ctx.db, modelId, window);
}

export function allocationRecord(row: AllocationRow, model: string): AllocationRecord {
  return {
    model_id: row.model_id,
    model,
    window: row.window,
    amount_micro: row.amount_micro,
    status: row.status,
    drafted_at: iso(row.drafted_at),
    locked_at: row.locked_at === null ? null : iso(row.locked_at),
  };
}

/**
 * The window a write may touch: the staker checks, the contract armed, the event's deadline, an
 * open draft window, and the caller's `window` guard. A guard naming a window whose allocation for
 * this model is locked answers `allocation_locked`; any other mismatch `window_mismatch`.
 */
function writableWindow(ctx: ServiceContext, p: Principal, what: string, modelRef: string, guard: string | undefined) {
  const terms = requireStaker(ctx, p, what);
  if (ctx.clock.now() < terms.armed_at) throw refuse("staking_not_armed");
  if (deadlinePassed(ctx)) throw refuse("event_deadline_passed");
  const model = resolveModel(ctx, p, modelRef);
  const window = draftWindow(ctx);
  const asked = guard ?? window;
  const locked = asked === null ? undefined : allocationRow(ctx, model.id, asked);
  if (locked?.status === "locked") {
    throw refuse("allocation_locked", { model: model.name, window: locked.window, locked_at: iso(locked.locked_at as number) });
  }
  if (window === null) throw refuse("stake_window_closed", { phase: cadenceNow(ctx).phase });
  if (asked !== window) throw refuse("window_mismatch", { draft_window: window, window: asked as string });
  return { terms, model, window };
}

/** The model has a round-lane run in the window that has not failed or been cancelled. */
function hasSubmission(ctx: ServiceContext, model: ModelRecord, window: string): boolean {
  return hasRoundRun(ctx.db, model.id, window);
}

function requireRoom(ctx: ServiceContext, p: Principal, terms: StakingTerms, model: ModelRecord, window: string, amount: number): void {
  if (amount < terms.min_micro) throw refuse("below_min_stake", { amount: `${formatUsdc(terms.min_micro)} USDC` });
  const n = otherAllocations(ctx.db, p.agent_id, window, model.id);
  if (n >= terms.max_slots) throw refuse("slot_limit", { max_slots: terms.max_slots, window });
  if (balanceUnavailable(ctx, windowIndex(ctx, window))) throw refuse("balance_unavailable");
  const spendable = spendableFor(ctx, balanceOf(ctx, terms, p.agent_id), p.agent_id, window, model.id);
  if (amount > spendable) throw refuse("insufficient_balance", { amount, spendable });
}

/**
 * Drafts (or redrafts) a stake on one of the caller's models for the round open now. Drafting
 * comes after submitting: the model needs a live round-lane run in the window. A draft is
 * off-chain and editable until the round closes, when it locks.
 */
export function setStakeAllocation(ctx: ServiceContext, p: Principal, input: AllocationInput): AllocationRecord & { spendable_micro: number } {
  return inTransaction(ctx.db, () => {
    const { terms, model, window } = writableWindow(ctx, p, "set_stake_allocation", input.model, input.window);
    const amount = parseUsdc(input.amount_usdc);
    if (amount === null) {
      const got = input.amount_usdc.length > 40 ? `${input.amount_usdc.slice(0, 40)}… (${input.amount_usdc.length} characters)` : input.amount_usdc;
      throw refuse("validation_error", { message: `amount_usdc: expected a decimal string with at most 6 decimals, e.g. "2.5" (got "${got}")` }, { extra: { loc: ["body", "amount_usdc"] } });
    }
    if (!hasSubmission(ctx, model, window)) throw refuse("no_submission_for_window", { model_id: model.id, window });
    requireRoom(ctx, p, terms, model, window, amount);
    const t = ctx.clock.now();
    draftAllocation(ctx.db, model.id, window, p.agent_id, amount, t);
    appendEvent(ctx.db, t, "stake.drafted", { agent: p.agent, model_id: model.id, window, amount_micro: amount });
    const spendable = spendableFor(ctx, balanceOf(ctx, terms, p.agent_id), p.agent_id, window, null);
    return { ...allocationRecord(allocationRow(ctx, model.id, window) as AllocationRow, model.name), spendable_micro: spendable };
  });
}

/** Withdraws an unlocked draft; a locked allocation cannot be withdrawn. */
export function withdrawStakeAllocation(
  ctx: ServiceContext,
  p: Principal,
  input: { model: string; window?: string },
): { model_id: string; window: string; withdrawn_micro: number } {
  return inTransaction(ctx.db, () => {
    const { model, window } = writableWindow(ctx, p, "withdraw_stake_allocation", input.model, input.window);
    const draft = allocationRow(ctx, model.id, window);
    if (!draft) throw refuse("allocation_not_found", { model: model.name, window });
    deleteAllocation(ctx.db, model.id, window);
    appendEvent(ctx.db, ctx.clock.now(), "stake.withdrawn", { agent: p.agent, model_id: model.id, window, amount_micro: draft.amount_micro });
    return { model_id: model.id, window, withdrawn_micro: draft.amount_micro };
  });
}
