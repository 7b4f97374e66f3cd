import type { Db } from "./db.js";
import { rowsInserted } from "./lifecycle-tables.js";
import { deletePredictions } from "./upload-predictions.js";

export type Lane = "round" | "practice";
export type RunStatus = "accepted" | "scoring" | "finalised" | "failed" | "cancelled";

/** One upload and its run, as stored (its predictions are kept apart: src/store/upload-predictions.ts). */
export interface RunRow {
  upload_id: string;
  seq: number;
  agent_id: string;
  model_id: string;
  lane: Lane;
  round_window: string | null;
  status: RunStatus;
  accepted_at: number;
  scoring_at: number;
  finishes_at: number;
  digest: string;
  n_rows: number;
  model_pkl_sha256: string;
  python_version: string;
  idempotency_key: string | null;
  error_code: string | null;
  error_message: string | null;
  n_matched: number | null;
  corr: number | null;
  aimc: number | null;
  ncorr: number | null;
  score: number | null;
}

/** The columns of a RunRow. */
export const RUN_COLUMNS = `upload_id, seq, agent_id, model_id, lane, round_window, status, accepted_at, scoring_at, finishes_at,
  digest, n_rows, model_pkl_sha256, python_version, idempotency_key, error_code, error_message, n_matched, corr, aimc, ncorr, score`;

/** Runs that still hold their place: they count against the pool and their content is filed. */
export const LIVE_STATUSES = "('accepted', 'scoring', 'finalised')";

export function runById(db: Db, id: string): RunRow | undefined {
  return db.prepare(`SELECT ${RUN_COLUMNS} FROM uploads WHERE upload_id = ?`).get(id) as RunRow | undefined;
}

/** Removes a run and its predictions. */
export function deleteUpload(db: Db, id: string): void {
  deletePredictions(db, id);
  db.prepare("DELETE FROM uploads WHERE upload_id = ?").run(id);
}

export function uploadByIdempotencyKey(db: Db, agentId: string, key: string): RunRow | undefined {
  return db.prepare(`SELECT ${RUN_COLUMNS} FROM uploads WHERE agent_id = ? AND idempotency_key = ?`).get(agentId, key) as RunRow | undefined;
}

/** The earliest live upload in the event with this content, if any. */
export function filedWithDigest(db: Db, digest: string): (RunRow & { model: string }) | undefined {
  return db
    .prepare(
      `SELECT u.*, m.name AS model FROM (SELECT ${RUN_COLUMNS} FROM uploads WHERE digest = ? AND status IN ${LIVE_STATUSES}) u
       JOIN models m ON m.id = u.model_id ORDER BY u.seq LIMIT 1`,
    )
    .get(digest) as (RunRow & { model: string }) | undefined;
}

/** A run of this model on this lane that is still being scored. */
export function runInFlight(db: Db, modelId: string, lane: Lane): RunRow | undefined {
  return db
    .prepare(`SELECT ${RUN_COLUMNS} FROM uploads WHERE model_id = ? AND lane = ? AND status IN ('accepted', 'scoring') ORDER BY seq LIMIT 1`)
    .get(modelId, lane) as RunRow | undefined;
}

export function setRunStatus(db: Db, id: string, status: RunStatus): void {
  db.prepare("UPDATE uploads SET status = ? WHERE upload_id = ?").run(status, id);
}

/** Files an accepted upload (its predictions are kept apart: src/store/upload-predictions.ts). */
export function insertUpload(
  db: Db,
  u: Pick<RunRow, "upload_id" | "seq" | "agent_id" | "model_id" | "lane" | "round_window" | "accepted_at" | "scoring_at" | "finishes_at" | "digest" | "n_rows" | "model_pkl_sha256" | "python_version" | "idempotency_key">,
): void {
  rowsInserted(db, "uploads");
  db.prepare(
    `INSERT INTO uploads (upload_id, seq, agent_id, model_id, lane, round_window, status, accepted_at, scoring_at,
           finishes_at, digest, n_rows, model_pkl_sha256, python_version, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?, 'accepted', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    u.upload_id, u.seq, u.agent_id, u.model_id, u.lane, u.round_window, u.accepted_at, u.scoring_at, u.finishes_at,
    u.digest, u.n_rows, u.model_pkl_sha256, u.python_version, u.idempotency_key,
  );
}

/** Ends a run that matched no id of its lane. */
export function failRun(db: Db, id: string, code: string, message: string): void {
  db.prepare("UPDATE uploads SET status = 'failed', n_matched = 0, error_code = ?, error_message = ? WHERE upload_id = ?").run(code, message, id);
}

/** Ends a scored run with its terms and score. */
export function finaliseRun(db: Db, id: string, r: { n_matched: number; corr: number; aimc: number | null; ncorr: number; score: number | null }): void {
  db.prepare("UPDATE uploads SET status = 'finalised', n_matched = ?, corr = ?, aimc = ?, ncorr = ?, score = ? WHERE upload_id = ?").run(
    r.n_matched,
    r.corr,
    r.aimc,
    r.ncorr,
    r.score,
    id,
  );
}

/** The agent's round-lane uploads that still hold their place in the pool. */
export function countedUploadsOf(db: Db, agentId: string): number {
  const { n } = db
    .prepare(`SELECT COUNT(*) AS n FROM uploads WHERE agent_id = ? AND lane = 'round' AND status IN ${LIVE_STATUSES}`)
    .get(agentId) as { n: number };
  return n;
}

/** A finalised, scored run as a board reads it. */
export interface ScoredRunRow {
  model_id: string;
  model: string;
  agent_id: string;
  corr: number;
  aimc: number;
  ncorr: number;
  score: number;
}

/**
 * Each model's latest finalised, scored run on a lane (and round window), in the order of those
 * runs: one index seek per model (`uploads_scored`), so a board read again each second by an open
 * page never passes over every run the event has finalised.
 */
export function latestScoredRuns(db: Db, lane: Lane, window: string | null): ScoredRunRow[] {
  return db
    .prepare(
      `SELECT u.model_id, m.name AS model, u.agent_id, u.corr, u.aimc, u.ncorr, u.score, u.n_matched, u.seq
       FROM models m JOIN uploads u ON u.seq = (
         SELECT seq FROM uploads WHERE lane = ? AND round_window IS ? AND model_id = m.id AND status = 'finalised' AND score IS NOT NULL
         ORDER BY seq DESC LIMIT 1)
       ORDER BY u.seq`,
    )
    .all(lane, window) as ScoredRunRow[];
}
