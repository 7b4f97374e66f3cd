import type { Db } from "./db.js";

/**
 * A two-stage lifecycle kept in one table: a row in status `from` moves to `next` at its `firstAt`
 * instant, and ends (however it ends) at its `endAt` instant. Event runs, model-file validations
 * and compute jobs all live this way. Names are the table's own columns, never caller input.
 */
export interface TwoStage {
  table: string;
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

/** Every transition due by `now`, row by row in `seq` order, each row's `next` before its `end`. */
export function dueTwoStage(db: Db, s: TwoStage, now: number): TwoStageDue[] {
  const rows = db
    .prepare(
      `SELECT ${s.id} AS id, status, ${s.firstAt} AS first_at, ${s.endAt} AS end_at FROM ${s.table}
       WHERE (status = ? AND ${s.firstAt} <= ?) OR (status IN (?, ?) AND ${s.endAt} <= ?) ORDER BY seq`,
    )
    .all(s.from, now, s.from, s.next, now) as { id: string; status: string; first_at: number; end_at: number }[];
  const due: TwoStageDue[] = [];
  for (const r of rows) {
    if (r.status === s.from) due.push({ t: r.first_at, stage: "next", id: r.id });
    if (r.end_at <= now) due.push({ t: r.end_at, stage: "end", id: r.id });
  }
  return due;
}
