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

/** Locks the round's pending stakes at its close, with the round's payout factor. */
export function lockRoundStakes(db: Db, exped: string, t: number, payoutFactor: number): void {
  db.prepare("UPDATE stakes SET status = 'locked', locked_at = ?, payout_factor = ? WHERE exped = ? AND status = 'pending'").run(t, payoutFactor, exped);
}

/** Pays or returns a locked stake. */
export function settleStake(db: Db, id: string, s: { status: "paid" | "returned"; score: number | null; payout_micro: number; settled_at: number; note: string | null }): void {
  db.prepare("UPDATE stakes SET status = ?, score = ?, payout_micro = ?, settled_at = ?, note = ? WHERE id = ?").run(
    s.status,
    s.score,
    s.payout_micro,
    s.settled_at,
    s.note,
    id,
  );
}

export function setStakePrincipal(db: Db, id: string, principalMicro: number): void {
  db.prepare("UPDATE stakes SET principal_micro = ? WHERE id = ?").run(principalMicro, id);
}

export function insertStake(db: Db, s: Pick<StakeRow, "id" | "seq" | "agent_id" | "model_id" | "exped" | "principal_micro" | "staked_at">): void {
  db.prepare("INSERT INTO stakes (id, seq, agent_id, model_id, exped, principal_micro, status, staked_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?)").run(
    s.id,
    s.seq,
    s.agent_id,
    s.model_id,
    s.exped,
    s.principal_micro,
    s.staked_at,
  );
}
