import type { Db } from "./db.js";

export type RoundStatus = "scheduled" | "open" | "closed" | "settled" | "unsettled";

export interface RoundRow {
  exped: string;
  idx: number;
  open_at: number;
  close_at: number;
  resolves_at: number;
  status: RoundStatus;
  note: string | null;
}

export function roundByExped(db: Db, exped: string): RoundRow | undefined {
  return db.prepare("SELECT * FROM rounds WHERE exped = ?").get(exped) as RoundRow | undefined;
}

export function allRounds(db: Db): RoundRow[] {
  return db.prepare("SELECT * FROM rounds ORDER BY idx").all() as RoundRow[];
}

/**
 * The rounds with a transition due by `now`: not yet opened with `open_at` passed, not yet closed
 * with `close_at` passed, or not yet settled (or unsettled) with `resolves_at` passed. Each branch
 * searches its (status, instant) index, so past rounds are never visited.
 */
export function roundsDue(db: Db, now: number): RoundRow[] {
  return db
    .prepare(
      `SELECT * FROM rounds WHERE (status = 'scheduled' AND open_at <= ?)
       OR (status IN ('scheduled', 'open') AND close_at <= ?)
       OR (status IN ('scheduled', 'open', 'closed') AND resolves_at <= ?)`,
    )
    .all(now, now, now) as RoundRow[];
}

/** The open round, if any (at most one tournament window is open at a time). */
export function openRound(db: Db): RoundRow | undefined {
  return db.prepare("SELECT * FROM rounds WHERE status = 'open' ORDER BY idx LIMIT 1").get() as RoundRow | undefined;
}

/** The latest round that has opened, open or not. */
export function latestOpenedRound(db: Db): RoundRow | undefined {
  return db.prepare("SELECT * FROM rounds WHERE status <> 'scheduled' ORDER BY idx DESC LIMIT 1").get() as
    | RoundRow
    | undefined;
}

export function setRoundStatus(db: Db, exped: string, status: RoundStatus, note: string | null = null): void {
  db.prepare("UPDATE rounds SET status = ?, note = ? WHERE exped = ?").run(status, note, exped);
}

/** The earliest instant after `t` at which a round still to settle resolves; null when none is left. */
export function nextResolution(db: Db, t: number): number | null {
  const { at } = db
    .prepare("SELECT MIN(resolves_at) AS at FROM rounds WHERE status NOT IN ('settled', 'unsettled') AND resolves_at > ?")
    .get(t) as { at: number | null };
  return at;
}

/** Puts the season's rounds into a fresh store, scheduled, numbered from 1 in order. */
export function scheduleRounds(db: Db, rounds: { window: string; open_at: number; close_at: number; resolves_at: number }[]): void {
  const round = db.prepare("INSERT INTO rounds (exped, idx, open_at, close_at, resolves_at, status) VALUES (?, ?, ?, ?, ?, 'scheduled')");
  rounds.forEach((r, i) => round.run(r.window, i + 1, r.open_at, r.close_at, r.resolves_at));
}

/** Settled rounds, in order. */
export function settledRounds(db: Db): { exped: string; idx: number }[] {
  return db.prepare("SELECT exped, idx FROM rounds WHERE status = 'settled' ORDER BY idx").all() as { exped: string; idx: number }[];
}

/** Settled rounds' expeds, in order, past the first `skip` (a replay lists only the rounds settled since it last looked). */
export function settledExpeds(db: Db, skip: number): string[] {
  return (db.prepare("SELECT exped FROM rounds WHERE status = 'settled' ORDER BY idx LIMIT -1 OFFSET ?").all(skip) as { exped: string }[]).map(
    (r) => r.exped,
  );
}

export function settledCount(db: Db): number {
  const { n } = db.prepare("SELECT COUNT(*) AS n FROM rounds WHERE status = 'settled'").get() as { n: number };
  return n;
}
