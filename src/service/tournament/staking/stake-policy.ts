import { iso } from "../../../domain/clock.js";
import { refuse } from "../../../domain/errors.js";
import { requireScope, type Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { requireTournamentStaking } from "../../kernel/settings/staking.js";
import { stakedModel } from "./staked-model.js";
import { stakesOfModel, UNSCORED_STATUSES, type StakeRow, type StakeStatus } from "../../../store/stakes.js";

export interface StakeView {
  stake_id: string;
  exped: string;
  status: StakeStatus;
  principal_micro: number;
  staked_at: string;
  locked_at: string | null;
  /** Frozen when the stake locks at the round's close. */
  payout_factor: number | null;
  /** The model's round score; null until paid (and on a returned stake). */
  score: number | null;
  payout_micro: number | null;
  settled_at: string | null;
  /** Why a stake was returned with payout 0. */
  note: string | null;
}

/**
 * A model's stake policy: its standing stake record, every round it has been staked on. A model
 * never staked on has none (404 `No stake policy set for this model`).
 */
export interface StakePolicy {
  model_id: string;
  model: string;
  /** Principal in its unscored rounds. */
  staked_micro: number;
  /** Sum of its payouts so far. */
  earned_micro: number;
  stakes: StakeView[];
}

function view(r: StakeRow): StakeView {
  const at = (t: number | null) => (t === null ? null : iso(t));
  return {
    stake_id: r.id,
    exped: r.exped,
    status: r.status,
    principal_micro: r.principal_micro,
    staked_at: iso(r.staked_at),
    locked_at: at(r.locked_at),
    payout_factor: r.payout_factor,
    score: r.score,
    payout_micro: r.payout_micro,
    settled_at: at(r.settled_at),
    note: r.note,
  };
}

/** The caller's model's stake policy (`get_stake`). */
export function stakePolicy(ctx: ServiceContext, p: Principal, ref: string): StakePolicy {
  requireTournamentStaking(ctx);
  requireScope(p, ["tournament"], "get_stake");
  const model = stakedModel(ctx, p, ref);
  const rows = stakesOfModel(ctx.db, model.id);
  if (rows.length === 0) throw refuse("no_stake_policy");
  return {
    model_id: model.id,
    model: model.name,
    staked_micro: rows.filter((r) => UNSCORED_STATUSES.includes(r.status)).reduce((s, r) => s + r.principal_micro, 0),
    earned_micro: rows.reduce((s, r) => s + (r.payout_micro ?? 0), 0),
    stakes: rows.map(view),
  };
}
