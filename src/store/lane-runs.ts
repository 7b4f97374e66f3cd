import type { Db } from "./db.js";
import type { RoundRow } from "./rounds.js";

/** Rounds not yet closed that opened by `openedBy` and that the auto-submit lane has not run, in order (index on status, open_at). */
export function roundsAwaitingLane(db: Db, openedBy: number): { exped: string; open_at: number }[] {
  return db
    .prepare(
      `SELECT exped, open_at FROM rounds WHERE status IN ('scheduled', 'open') AND open_at <= ?
       AND exped NOT IN (SELECT exped FROM lane_rounds) ORDER BY idx`,
    )
    .all(openedBy) as { exped: string; open_at: number }[];
}

/** Open rounds the lane has not run yet, in order. */
export function openRoundsAwaitingLane(db: Db): RoundRow[] {
  return db.prepare("SELECT * FROM rounds WHERE status = 'open' AND exped NOT IN (SELECT exped FROM lane_rounds) ORDER BY idx").all() as RoundRow[];
}

/** Records that the lane ran for a round (at most once). */
export function markLaneRound(db: Db, exped: string, t: number): void {
  db.prepare("INSERT INTO lane_rounds (exped, ran_at) VALUES (?, ?)").run(exped, t);
}

export interface LaneRunRow {
  exped: string;
  outcome: "submitted" | "failed" | "skipped";
  detail: string | null;
  submission_id: string | null;
  ran_at: number;
}

export function insertLaneRun(db: Db, modelId: string, uploadId: string, run: LaneRunRow): void {
  db.prepare("INSERT INTO lane_runs (model_id, exped, upload_id, outcome, detail, submission_id, ran_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run(
    modelId,
    run.exped,
    uploadId,
    run.outcome,
    run.detail,
    run.submission_id,
    run.ran_at,
  );
}

/** The model's latest lane run. */
export function lastLaneRunOf(db: Db, modelId: string): LaneRunRow | undefined {
  return db
    .prepare("SELECT exped, outcome, detail, submission_id, ran_at FROM lane_runs WHERE model_id = ? ORDER BY ran_at DESC LIMIT 1")
    .get(modelId) as LaneRunRow | undefined;
}
