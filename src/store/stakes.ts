import type { Db } from "./db.js";

/** A stake's lifecycle: taken while its round is open, locked at the close, then paid or returned. */
export type StakeStatus = "pending" | "locked" | "paid" | "returned";

/** Statuses of a stake whose round is not scored yet: its principal is still at stake. */
export const UNSCORED_STATUSES: StakeStatus[] = ["pending", "locked"];
const UNSCORED = `(${UNSCORED_STATUSES.map((s) => `'${s}'`).join(", ")})`;

export interface StakeRow {
  id: string;
  seq: number;
  agent_id: string;
  model_id: string;
  exped: string;
  principal_micro: number;
  status: StakeStatus;
  staked_at: number;
  locked_at: number | null;
  payout_factor: number | null;
  score: number | null;
  payout_micro: number | null;
  settled_at: number | null;
  note: string | null;
}

export function stakeOn(db: Db, modelId: string, exped: string): StakeRow | undefined {
  return db.prepare("SELECT * FROM stakes WHERE model_id = ? AND exped = ?").get(modelId, exped) as StakeRow | undefined;
}

export function stakesOfModel(db: Db, modelId: string): StakeRow[] {
  return db.prepare("SELECT * FROM stakes WHERE model_id = ? ORDER BY seq").all(modelId) as StakeRow[];
}

export function stakesOfRound(db: Db, exped: string, status: StakeStatus): StakeRow[] {
  return db.prepare("SELECT * FROM stakes WHERE exped = ? AND status = ? ORDER BY seq").all(exped, status) as StakeRow[];
}

/** Principal at stake in every unscored round, across all agents: what fills the shared room. */
export function unscoredTotal(db: Db): number {
  return (db.prepare(`SELECT COALESCE(SUM(principal_micro), 0) AS n FROM stakes WHERE status IN ${UNSCORED}`).get() as { n: number }).n;
}

/** One agent's totals: principal in unscored rounds, principal settled, and the payouts earned. */
export function agentTotals(db: Db, agentId: string): { staked_micro: number; settled_micro: number; earned_micro: number } {
  return db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN status IN ${UNSCORED} THEN principal_micro END), 0) AS staked_micro,
              COALESCE(SUM(CASE WHEN status NOT IN ${UNSCORED} THEN principal_micro END), 0) AS settled_micro,
              COALESCE(SUM(payout_micro), 0) AS earned_micro
       FROM stakes WHERE agent_id = ?`,
    )
    .get(agentId) as { staked_micro: number; settled_micro: number; earned_micro: number };
}

export function stakeCount(db: Db): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM stakes").get() as { n: number }).n;
}
