import { agentId } from "../../domain/ids.js";
import type { ServiceContext } from "../kernel/context.js";
import { balanceOf } from "../event/staking/balance.js";
import { stakingTerms } from "../event/staking/terms.js";
import { agentTotals, stakeCount } from "../../store/stakes.js";
import { walletOf } from "../kernel/settings/staking.js";

export interface StakeBalanceRow {
  rank: number;
  agent: string;
  /** Event: the deposit (principal + settled). Tournament: the stake limit (allowance + earned). */
  net_micro: number;
  /** What settled stakes paid, in total (negative after losses). */
  settled_micro: number;
  /** Principal locked or staked in rounds not settled yet. */
  locked_micro: number;
}

export interface StakeBalances {
  product: "event" | "tournament";
  /** Event: the deposit decides a money event. Tournament: what staking earned. */
  rank_metric: "net_micro" | "settled_micro";
  rows: StakeBalanceRow[];
}

/**
 * Every staking agent's money, ranked: on a money event the final deposit decides the winner; on a
 * tournament, what its stakes earned. Null when nobody can stake (an event without staking) or,
 * on a tournament, nobody has staked. An organiser's read: agents are private on the public boards.
 */
export function stakeBalances(ctx: ServiceContext): StakeBalances | null {
  const agents = ctx.world.deployment.agents;
  if (ctx.world.deployment.kind === "event") {
    const terms = stakingTerms(ctx);
    if (!terms) return null;
    const rows = agents
      .filter((a) => a.scope === "event" && a.event_staking)
      .map((a) => {
        const b = balanceOf(ctx, terms, agentId(a.name));
        return { agent: a.name, net_micro: b.net_micro, settled_micro: b.settled_micro, locked_micro: b.locked_micro };
      });
    return { product: "event", rank_metric: "net_micro", rows: ranked(rows, (r) => r.net_micro) };
  }
  if (stakeCount(ctx.db) === 0) return null;
  const rows = agents
    .filter((a) => a.scope === "tournament")
    .map((a) => {
      const t = agentTotals(ctx.db, agentId(a.name));
      return { agent: a.name, net_micro: walletOf(ctx, a.name).allowance_micro + t.earned_micro, settled_micro: t.earned_micro, locked_micro: t.staked_micro };
    });
  return { product: "tournament", rank_metric: "settled_micro", rows: ranked(rows, (r) => r.settled_micro) };
}

function ranked(rows: Omit<StakeBalanceRow, "rank">[], by: (r: Omit<StakeBalanceRow, "rank">) => number): StakeBalanceRow[] {
  return rows.sort((x, y) => by(y) - by(x) || (x.agent < y.agent ? -1 : 1)).map((r, i) => ({ rank: i + 1, ...r }));
}
