import { agentId } from "../../src/domain/ids.js";
import { loggedPayouts, nonZeroAimcOf, oversizedPayout, scorePastItsClip, settledPayouts, unbalancedWindow } from "../../src/store/audit.js";
import { countedUploadsOf } from "../../src/store/uploads.js";
import type { ServiceContext } from "../../src/service/kernel/context.js";
import { stakeBalances } from "../../src/service/overview/stake-balances.js";
import type { Scenario } from "../scenario.js";

/** What an invariant sees after a step: the replay's store (read-only) and its scenario. */
export interface ReplayView {
  ctx: ServiceContext;
  scenario: Scenario;
}

/** A truth of the engine that holds after every step; `check` says what broke, or null. */
export interface Invariant {
  name: string;
  check: (view: ReplayView) => string | null;
}

/**
 * Event staking creates and loses no money: no agent locks more than its balance or less than
 * nothing; every locked window's allocations sum to the total frozen at its lock, and its
 * settlements' stakes to that same total; no settlement moves more than its stake times the
 * window's return amplitude; and the payouts in the books (the settlements table) are the
 * payouts in the audit trail (the event log's stake.settled events), agent by agent.
 */
const moneyConserved: Invariant = {
  name: "money conserved",
  check: ({ ctx }) => {
    const balances = stakeBalances(ctx);
    for (const row of balances?.rows ?? []) {
      if (row.locked_micro < 0 || row.locked_micro > row.net_micro) return `${row.agent}: locked ${row.locked_micro} µUSDC of a ${row.net_micro} µUSDC balance`;
    }
    if (!ctx.world.deployment.event?.staking) return null;
    const window = unbalancedWindow(ctx.db);
    if (window) {
      const settled = window.settled_micro === null ? "" : `, settled stakes ${window.settled_micro}`;
      return `window ${window.window}: locked ${window.total_locked_micro} µUSDC, its locked allocations ${window.locked_micro}${settled}`;
    }
    const oversized = oversizedPayout(ctx.db);
    if (oversized) return `window ${oversized.window}, model ${oversized.model_id}: a stake of ${oversized.amount_micro} µUSDC paid ${oversized.payout_micro} (at most ×${oversized.amplitude})`;
    const books = settledPayouts(ctx.db);
    const logged = loggedPayouts(ctx.db);
    for (const agent of new Set([...books.keys(), ...logged.keys()])) {
      if ((books.get(agent) ?? 0) !== (logged.get(agent) ?? 0)) return `${agent}: settlements paid ${books.get(agent) ?? 0} µUSDC, the event log says ${logged.get(agent) ?? 0}`;
    }
    return null;
  },
};

/** No event agent holds more round-lane uploads than its pool. */
const poolNeverNegative: Invariant = {
  name: "pool counts never negative",
  check: ({ ctx, scenario }) => {
    const pool = ctx.world.deployment.event?.upload_pool ?? null;
    if (pool === null) return null;
    for (const a of scenario.agents.filter((a) => a.scope === "event")) {
      const n = countedUploadsOf(ctx.db, agentId(a.name));
      if (pool - n < 0) return `${a.name}: ${pool - n} uploads left of ${pool}`;
    }
    return null;
  },
};

/** Every settled score (a tournament exped's, an event upload's) lies within the clip in force when it settled (a set_scoring action changes it). */
const scoresWithinClip: Invariant = {
  name: "every score within the clip",
  check: ({ ctx }) => {
    const past = scorePastItsClip(ctx.db, ctx.world.deployment.scoring.clip);
    return past ? `${past.what} of magnitude ${past.magnitude} is outside the clip ${past.clip} in force when it settled` : null;
  },
};

/** A benchmark copier submits v1_designated itself: its AIMC is exactly 0 in every scored exped. */
const copierAimcZero: Invariant = {
  name: "AIMC exactly 0 for the benchmark copier",
  check: ({ ctx, scenario }) => {
    for (const a of scenario.agents.filter((a) => a.strategy === "benchmark_copier")) {
      const row = nonZeroAimcOf(ctx.db, agentId(a.name));
      if (row) return `${a.name}: AIMC ${row.aimc} on ${row.exped}`;
    }
    return null;
  },
};

/** The invariants a swarm checks after every step (the digest on rerun is checked once the replay ends). */
export const STEP_INVARIANTS: Invariant[] = [moneyConserved, poolNeverNegative, scoresWithinClip, copierAimcZero];
