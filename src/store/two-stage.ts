import type { Db } from "./db.js";
import { mayHoldRows, type LifecycleTable } from "./lifecycle-tables.js";

/**
 * A two-stage lifecycle kept in one table: a row in status `from` moves to `next` at its `firstAt`
 * instant, and ends (however it ends) at its `endAt` instant. Event runs, model-file validations
 * and compute jobs all live this way. Names are the table's own columns, never caller input.
 */
export interface TwoStage {
  table: LifecycleTable;
  id: string;
  from: string;
  next: string;
  firstAt: string;
  endAt: string;
}

export interface TwoStageDue {
  t: number;
  stage: "next" | "end";
  id: string;
}

/**
 * Every transition due by `now`, row by row in `seq` order, each row's `next` before its `end`.
 * The statuses are written into the SQL rather than bound: SQLite (built with STAT4) prepares a
 * statement again whenever a parameter its plan weighed by value is bound, and this query runs
 * before every call of a served event (compiling it again took about 4 % of its main thread at 20 agents).
 */
export function dueTwoStage(db: Db, s: TwoStage, now: number): TwoStageDue[] {
  if (!mayHoldRows(db, s.table)) return [];
  const [from, next] = [statusLiteral(s.from), statusLiteral(s.next)];
  const rows = db
    .prepare(
      `SELECT ${s.id} AS id, status, ${s.firstAt} AS first_at, ${s.endAt} AS end_at FROM ${s.table}
       WHERE (status = ${from} AND ${s.firstAt} <= ?) OR (status IN (${from}, ${next}) AND ${s.endAt} <= ?) ORDER BY seq`,
    )
    .all(now, now) as { id: string; status: string; first_at: number; end_at: number }[];
  const due: TwoStageDue[] = [];
  for (const r of rows) {
    if (r.status === s.from) due.push({ t: r.first_at, stage: "next", id: r.id });
    if (r.end_at <= now) due.push({ t: r.end_at, stage: "end", id: r.id });
  }
  return due;
}

/** A status name as an SQL string literal (names are the code's own: lower-case words). */
function statusLiteral(status: string): string {
  if (!/^[a-z_]+$/.test(status)) throw new Error(`a two-stage status must be a lower-case word, not ${JSON.stringify(status)}`);
  return `'${status}'`;
}
