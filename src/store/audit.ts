import type { Db } from "./db.js";

/**
 * Read-only questions a swarm's invariants ask of a replay's store after each step
 * (sim/sweep/invariants.ts): sums and extremes across every agent, which no operation answers.
 */

/**
 * A locked event stake window whose books disagree, if any: its locked allocations no longer sum
 * to the total frozen when it locked (a lock is immutable), or, once settled, its settlements'
 * stakes do not sum to that total (a stake settled twice, or not at all).
 */
export function unbalancedWindow(db: Db): { window: string; total_locked_micro: number; locked_micro: number; settled_micro: number | null } | undefined {
  return db
    .prepare(
      `SELECT w.window, w.total_locked_micro,
         (SELECT COALESCE(SUM(a.amount_micro), 0) FROM stake_allocations a WHERE a.window = w.window AND a.status = 'locked') AS locked_micro,
         CASE WHEN w.settled_at IS NULL THEN NULL ELSE (SELECT COALESCE(SUM(s.amount_micro), 0) FROM stake_settlements s WHERE s.window = w.window) END AS settled_micro
       FROM stake_windows w
       WHERE locked_micro != w.total_locked_micro OR (settled_micro IS NOT NULL AND settled_micro != w.total_locked_micro)
       ORDER BY w.window LIMIT 1`,
    )
    .get() as { window: string; total_locked_micro: number; locked_micro: number; settled_micro: number | null } | undefined;
}

/** A settled event stake that paid (or lost) more than its stake times its window's return amplitude, the most a stake can move, if any. */
export function oversizedPayout(db: Db): { window: string; model_id: string; amount_micro: number; payout_micro: number; amplitude: number } | undefined {
  return db
    .prepare(
      `SELECT s.window, s.model_id, s.amount_micro, s.payout_micro, w.stake_return_amplitude AS amplitude
       FROM stake_settlements s JOIN stake_windows w ON w.window = s.window
       WHERE ABS(s.payout_micro) > s.amount_micro * w.stake_return_amplitude
       ORDER BY s.window, s.model_id LIMIT 1`,
    )
    .get() as { window: string; model_id: string; amount_micro: number; payout_micro: number; amplitude: number } | undefined;
}

/** Per agent, what the event stakes' settlements paid, from the settlements table (the books). */
export function settledPayouts(db: Db): Map<string, number> {
  const rows = db.prepare("SELECT agent_id, SUM(payout_micro) AS paid FROM stake_settlements GROUP BY agent_id").all() as { agent_id: string; paid: number }[];
  return new Map(rows.map((r) => [r.agent_id, r.paid] as const));
}

/** Per agent, what the event stakes' settlements paid, from the event log's stake.settled events (the audit trail). */
export function loggedPayouts(db: Db): Map<string, number> {
  const paid = new Map<string, number>();
  for (const { payload } of db.prepare("SELECT payload FROM events WHERE type = 'stake.settled' ORDER BY seq").all() as { payload: string }[]) {
    for (const s of (JSON.parse(payload) as { settlements: { agent_id: string; payout_micro: number }[] }).settlements) {
      paid.set(s.agent_id, (paid.get(s.agent_id) ?? 0) + s.payout_micro);
    }
  }
  return paid;
}

/**
 * The first settled score (a tournament round's, an event upload's) larger in magnitude than the
 * clip in force when it settled, if any: the event log is read in order, the clip starting at
 * `initialClip` and following each scoring.changed, each round.settled checked against the scores
 * table's rows for its exped, each run.finalised against its upload's row.
 */
export function scorePastItsClip(db: Db, initialClip: number): { what: string; magnitude: number; clip: number } | undefined {
  const events = db.prepare("SELECT type, payload FROM events WHERE type IN ('scoring.changed', 'round.settled', 'run.finalised') ORDER BY seq").all() as { type: string; payload: string }[];
  const roundLargest = db.prepare("SELECT MAX(ABS(score)) AS s FROM scores WHERE exped = ?");
  const uploadScore = hasTable(db, "uploads") ? db.prepare("SELECT ABS(score) AS s FROM uploads WHERE upload_id = ?") : null;
  let clip = initialClip;
  for (const { type, payload } of events) {
    const p = JSON.parse(payload) as { clip?: number; exped?: string; upload_id?: string };
    if (type === "scoring.changed") {
      clip = p.clip ?? clip;
      continue;
    }
    const round = type === "round.settled";
    const row = (round ? roundLargest.get(p.exped) : uploadScore?.get(p.upload_id)) as { s: number | null } | undefined;
    const magnitude = row?.s ?? null;
    if (magnitude !== null && !(magnitude <= clip)) return { what: round ? `${p.exped}'s tournament score` : `upload ${p.upload_id}'s score`, magnitude, clip };
  }
  return undefined;
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
