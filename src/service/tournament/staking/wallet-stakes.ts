import { iso } from "../../../domain/clock.js";
import { refuse } from "../../../domain/errors.js";
import { serviceId } from "../../../domain/ids.js";
import { parseUsdcMicro } from "../../../domain/money.js";
import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import { requireConfirmedEmail, requireScope, type Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { chainRpcDown } from "../../kernel/faults.js";
import { openRound } from "../../../store/rounds.js";
import { stakeAllowance } from "./allowance.js";
import { requireTournamentStaking, stakingSettings, walletOf } from "../../kernel/settings/staking.js";
import { stakedModel } from "./staked-model.js";
import { stakeCount, stakeOn, unscoredTotal, insertStake, setStakePrincipal } from "../../../store/stakes.js";

export interface StakeInput {
  /** The caller's model, by id (mdl_…) or name. */
  model_id: string;
  /** The principal in dollars: a decimal string ("2.5") or a number, at most 6 decimals. */
  amount_usdc: unknown;
}

export interface StakeResult {
  stake_id: string;
  model_id: string;
  model: string;
  exped: string;
  /** What this call added. */
  amount_micro: number;
  /** The model's whole principal on this round after it. */
  principal_micro: number;
  status: "pending";
  /** The round's close: the stake locks then, with the round's payout factor. */
  locks_at: string;
  /** When the round resolves and the stake is paid or returned. */
  resolves_at: string;
  remaining_micro: number;
}

/**
 * `stake_from_wallet`: stakes a principal from the caller's linked wallet on one of its models for
 * the round open now; a second stake on the same model and round adds to its principal. Checks, in
 * order: scope, confirmed e-mail, principal, model (benchmark, owner, exists), passkey, an open
 * round, the stake limit, the room shared by unscored rounds, the chain. A refusal writes nothing.
 */
export function stakeFromWallet(ctx: ServiceContext, p: Principal, input: StakeInput): StakeResult {
  requireTournamentStaking(ctx);
  requireScope(p, ["tournament"], "stake_from_wallet");
  requireConfirmedEmail(p);
  const amount = parseUsdcMicro(input.amount_usdc);
  if (amount === null) throw refuse("stake_principal_invalid");
  const model = stakedModel(ctx, p, input.model_id);
  if (!walletOf(ctx, p.agent).passkey) throw refuse("wallet_no_passkey");
  const round = openRound(ctx.db);
  if (!round) throw refuse("no_round_to_stake");
  const { remaining_micro } = stakeAllowance(ctx, p);
  if (amount > BigInt(remaining_micro)) {
    throw refuse("over_allowance", { amount: amount.toString(), limit: remaining_micro }, { extra: { remaining_micro } });
  }
  const micro = Number(amount);
  if (unscoredTotal(ctx.db) + micro > stakingSettings(ctx).round_capacity_micro) throw refuse("round_full");
  if (chainRpcDown(ctx, round.idx)) throw refuse("chain_rpc_unavailable");

  return inTransaction(ctx.db, () => {
    const t = ctx.clock.now();
    const existing = stakeOn(ctx.db, model.id, round.exped);
    let id: string;
    let principal: number;
    if (existing) {
      id = existing.id;
      principal = existing.principal_micro + micro;
      setStakePrincipal(ctx.db, id, principal);
    } else {
      const seq = stakeCount(ctx.db) + 1;
      id = serviceId("stk", ctx.world.deployment.seed, "stake", seq);
      principal = micro;
      insertStake(ctx.db, { id, seq, agent_id: p.agent_id, model_id: model.id, exped: round.exped, principal_micro: principal, staked_at: t });
    }
    appendEvent(ctx.db, t, "stake.placed", { stake_id: id, agent: p.agent, model_id: model.id, exped: round.exped, amount_micro: micro, principal_micro: principal });
    return {
      stake_id: id,
      model_id: model.id,
      model: model.name,
      exped: round.exped,
      amount_micro: micro,
      principal_micro: principal,
      status: "pending" as const,
      locks_at: iso(round.close_at),
      resolves_at: iso(round.resolves_at),
      remaining_micro: remaining_micro - micro,
    };
  });
}
