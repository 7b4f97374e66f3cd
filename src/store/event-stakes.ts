import type { Db } from "./db.js";
import { mayHoldRows, rowsInserted } from "./lifecycle-tables.js";

/** An event stake on one model for one round window, as stored. */
export interface AllocationRow {
  model_id: string;
  window: string;
  amount_micro: number;
  status: "draft" | "locked";
  drafted_at: number;
  locked_at: number | null;
}

/** A locked window's terms. */
export interface StakeWindowRow {
  payout_factor: number;
  stake_return_amplitude: number;
}

/** A locked stake and the score of its model's latest finalised round run in the window (null when none). */
export interface LockedStake {
  model_id: string;
  agent_id: string;
  amount_micro: number;
  score: number | null;
}

export interface StakeSettlementRow {
  model_id: string;
  model: string;
  amount_micro: number;
  score: number | null;
  payout_micro: number;
  settled_at: number;
  note: string | null;
}

export function allocationOf(db: Db, modelId: string, window: string): AllocationRow | undefined {
  return db.prepare("SELECT * FROM stake_allocations WHERE model_id = ? AND window = ?").get(modelId, window) as AllocationRow | undefined;
}

/** Whether the model has a round run in the window that has not failed or been cancelled. */
export function hasRoundRun(db: Db, modelId: string, window: string): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM uploads WHERE model_id = ? AND lane = 'round' AND round_window = ?
         AND status NOT IN ('failed', 'cancelled') LIMIT 1`,
      )
      .get(modelId, window) !== undefined
  );
}

/** How many of the agent's other models hold a stake in the window. */
export function otherAllocations(db: Db, agentId: string, window: string, modelId: string): number {
  const { n } = db
    .prepare("SELECT COUNT(*) AS n FROM stake_allocations WHERE agent_id = ? AND window = ? AND model_id <> ?")
    .get(agentId, window, modelId) as { n: number };
  return n;
}

/** Drafts a stake, or redrafts the model's stake in the window. */
export function draftAllocation(db: Db, modelId: string, window: string, agentId: string, amountMicro: number, t: number): void {
  db.prepare(
    `INSERT INTO stake_allocations (model_id, window, agent_id, amount_micro, status, drafted_at) VALUES (?, ?, ?, ?, 'draft', ?)
         ON CONFLICT (model_id, window) DO UPDATE SET amount_micro = excluded.amount_micro, drafted_at = excluded.drafted_at`,
  ).run(modelId, window, agentId, amountMicro, t);
}

export function deleteAllocation(db: Db, modelId: string, window: string): void {
  db.prepare("DELETE FROM stake_allocations WHERE model_id = ? AND window = ?").run(modelId, window);
}

/** What the agent's stakes have paid so far, in micro USDC. */
export function settledMicro(db: Db, agentId: string): number {
  const { settled } = db
    .prepare("SELECT COALESCE(SUM(payout_micro), 0) AS settled FROM stake_settlements WHERE agent_id = ?")
    .get(agentId) as { settled: number };
  return settled;
}

/** What the agent has locked in windows not settled yet, in micro USDC. */
export function lockedMicro(db: Db, agentId: string): number {
  const { locked } = db
    .prepare(
      `SELECT COALESCE(SUM(a.amount_micro), 0) AS locked FROM stake_allocations a
       LEFT JOIN stake_windows w ON w.window = a.window
       WHERE a.agent_id = ? AND a.status = 'locked' AND w.settled_at IS NULL`,
    )
    .get(agentId) as { locked: number };
  return locked;
}

/** What the agent has drafted in the window, apart from `modelId`'s draft (null: counting every draft). */
export function draftedMicro(db: Db, agentId: string, window: string | null, modelId: string | null): number {
  const { drafted } = db
    .prepare(
      `SELECT COALESCE(SUM(amount_micro), 0) AS drafted FROM stake_allocations
       WHERE agent_id = ? AND window = ? AND status = 'draft' AND model_id IS NOT ?`,
    )
    .get(agentId, window, modelId) as { drafted: number };
  return drafted;
}

/** The window's drafts, by model. */
export function draftsIn(db: Db, window: string): { model_id: string; agent_id: string; amount_micro: number }[] {
  return db
    .prepare("SELECT model_id, agent_id, amount_micro FROM stake_allocations WHERE window = ? AND status = 'draft' ORDER BY model_id")
    .all(window) as { model_id: string; agent_id: string; amount_micro: number }[];
}

/** Locks the window's drafts and records its terms. */
export function lockWindowRows(db: Db, window: string, t: number, totalMicro: number, payoutFactor: number, amplitude: number): void {
  db.prepare("UPDATE stake_allocations SET status = 'locked', locked_at = ? WHERE window = ? AND status = 'draft'").run(t, window);
  rowsInserted(db, "stake_windows");
  db.prepare("INSERT INTO stake_windows (window, locked_at, total_locked_micro, payout_factor, stake_return_amplitude) VALUES (?, ?, ?, ?, ?)").run(
    window,
    t,
    totalMicro,
    payoutFactor,
    amplitude,
  );
}

/** Locked windows not settled yet. */
export function unsettledWindows(db: Db): string[] {
  if (!mayHoldRows(db, "stake_windows")) return [];
  return (db.prepare("SELECT window FROM stake_windows WHERE settled_at IS NULL").all() as { window: string }[]).map((w) => w.window);
}

/** A locked window's terms; undefined while it is not locked. */
export function stakeWindow(db: Db, window: string): StakeWindowRow | undefined {
  return db.prepare("SELECT payout_factor, stake_return_amplitude FROM stake_windows WHERE window = ?").get(window) as StakeWindowRow | undefined;
}

export function lockedStakes(db: Db, window: string): LockedStake[] {
  return db
    .prepare(
      `SELECT a.model_id, a.agent_id, a.amount_micro,
         (SELECT u.score FROM uploads u WHERE u.model_id = a.model_id AND u.lane = 'round' AND u.round_window = a.window
            AND u.status = 'finalised' AND u.score IS NOT NULL ORDER BY u.seq DESC LIMIT 1) AS score
       FROM stake_allocations a WHERE a.window = ? AND a.status = 'locked' ORDER BY a.model_id`,
    )
    .all(window) as LockedStake[];
}

/** Records the window's settlements (in order) and marks it settled. */
export function settleWindowRows(
  db: Db,
  window: string,
  t: number,
  settlements: { model_id: string; agent_id: string; amount_micro: number; score: number | null; payout_micro: number; note: string | null }[],
): void {
  const insert = db.prepare(
    `INSERT INTO stake_settlements (model_id, window, agent_id, amount_micro, score, payout_micro, settled_at, note)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const s of settlements) insert.run(s.model_id, window, s.agent_id, s.amount_micro, s.score, s.payout_micro, t, s.note);
  db.prepare("UPDATE stake_windows SET settled_at = ? WHERE window = ?").run(t, window);
}

/** The agent's stakes in the window, with their models' names. */
export function allocationsIn(db: Db, agentId: string, window: string): (AllocationRow & { model: string })[] {
  return db
    .prepare(
      `SELECT a.*, m.name AS model FROM stake_allocations a JOIN models m ON m.id = a.model_id
       WHERE a.agent_id = ? AND a.window = ? ORDER BY a.model_id`,
    )
    .all(agentId, window) as (AllocationRow & { model: string })[];
}

/** The agent's settled stakes in the window, with their models' names. */
export function settlementsIn(db: Db, agentId: string, window: string): StakeSettlementRow[] {
  return db
    .prepare(
      `SELECT s.model_id, m.name AS model, s.amount_micro, s.score, s.payout_micro, s.settled_at, s.note
       FROM stake_settlements s JOIN models m ON m.id = s.model_id WHERE s.agent_id = ? AND s.window = ? ORDER BY s.model_id`,
    )
    .all(agentId, window) as StakeSettlementRow[];
}
