import { agentId } from "../../src/domain/ids.js";
import { parseUsdc } from "../../src/domain/money.js";
import { largestScores, nonZeroAimcOf, settledPayoutsOf } from "../../src/store/audit.js";
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

/** An event agent's deposit is its grant plus what its settled stakes paid; it never locks more than it has. */
const moneyConserved: Invariant = {
  name: "money conserved",
  check: ({ ctx }) => {
    const balances = stakeBalances(ctx);
    if (!balances) return null;
    const starting = ctx.world.deployment.event?.staking ? startingMicro(ctx) : null;
    for (const row of balances.rows) {
      if (row.locked_micro < 0 || row.locked_micro > row.net_micro) return `${row.agent}: locked ${row.locked_micro} µUSDC of a ${row.net_micro} µUSDC balance`;
      if (starting === null) continue;
      const paid = settledPayoutsOf(ctx.db, agentId(row.agent));
      if (row.net_micro !== starting + paid) return `${row.agent}: balance ${row.net_micro} µUSDC != grant ${starting} + settled payouts ${paid}`;
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

/** Every settled score (a tournament exped's, an event upload's) lies within the widest clip the scenario ever sets. */
const scoresWithinClip: Invariant = {
  name: "every score within the clip",
  check: ({ ctx, scenario }) => {
    const clip = Math.max(scenario.scoring.clip, ...scenario.actions.flatMap((a) => ("set_scoring" in a && a.set_scoring.clip !== undefined ? [a.set_scoring.clip] : [])));
    const largest = largestScores(ctx.db);
    for (const [what, s] of [
      ["a tournament score", largest.tournament],
      ["an event upload's score", largest.upload],
    ] as const) {
      if (s !== null && !(s <= clip)) return `${what} of magnitude ${s} is outside the clip ${clip}`;
    }
    return null;
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

function startingMicro(ctx: ServiceContext): number {
  return parseUsdc(ctx.world.deployment.event?.staking?.starting_stake_usdc ?? "0") as number;
}
