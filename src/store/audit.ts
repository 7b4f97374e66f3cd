import type { Db } from "./db.js";

/**
 * Read-only questions a swarm's invariants ask of a replay's store after each step
 * (sim/sweep/invariants.ts): sums and extremes across every agent, which no operation answers.
 */

/** What an agent's settled event stakes have paid it, in micro USDC. */
export function settledPayoutsOf(db: Db, agentId: string): number {
  return (db.prepare("SELECT COALESCE(SUM(payout_micro), 0) AS paid FROM stake_settlements WHERE agent_id = ?").get(agentId) as { paid: number }).paid;
}

/** The largest magnitude of any settled tournament score, and of any event upload's score (null where there is none, or no uploads table). */
export function largestScores(db: Db): { tournament: number | null; upload: number | null } {
  const worst = (sql: string) => (db.prepare(sql).get() as { s: number | null }).s;
  return {
    tournament: worst("SELECT MAX(ABS(score)) AS s FROM scores"),
    upload: hasTable(db, "uploads") ? worst("SELECT MAX(ABS(score)) AS s FROM uploads WHERE score IS NOT NULL") : null,
  };
}

/** One exped where an agent's models scored a non-zero AIMC, if any. */
export function nonZeroAimcOf(db: Db, agentId: string): { exped: string; aimc: number } | undefined {
  return db
    .prepare("SELECT s.exped, s.aimc FROM scores s JOIN models m ON m.id = s.model_id WHERE m.agent_id = ? AND s.aimc != 0 LIMIT 1")
    .get(agentId) as { exped: string; aimc: number } | undefined;
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
