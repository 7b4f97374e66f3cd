import type { Db } from "../../store/db.js";

export type Lane = "round" | "practice";
export type RunStatus = "accepted" | "scoring" | "finalised" | "failed" | "cancelled";

/** One upload and its run, as stored. */
export interface UploadRow {
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
  ids: string;
  predictions: Buffer;
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

/** An upload's run without its predictions (what a run's view needs). */
export type RunRow = Omit<UploadRow, "ids" | "predictions">;

/** The columns of a RunRow: selecting them leaves the megabytes of ids and values in the store. */
export const RUN_COLUMNS = `upload_id, seq, agent_id, model_id, lane, round_window, status, accepted_at, scoring_at, finishes_at,
  digest, n_rows, model_pkl_sha256, python_version, idempotency_key, error_code, error_message, n_matched, corr, aimc, ncorr, score`;

/** Runs that still hold their place: they count against the pool and their content is filed. */
export const LIVE_STATUSES = "('accepted', 'scoring', 'finalised')";

export function uploadById(db: Db, id: string): UploadRow | undefined {
  return db.prepare("SELECT * FROM uploads WHERE upload_id = ?").get(id) as UploadRow | undefined;
}

export function uploadByIdempotencyKey(db: Db, agentId: string, key: string): UploadRow | undefined {
  return db.prepare("SELECT * FROM uploads WHERE agent_id = ? AND idempotency_key = ?").get(agentId, key) as
    | UploadRow
    | undefined;
}

/** The earliest live upload in the event with this content, if any. */
export function filedWithDigest(db: Db, digest: string): (UploadRow & { model: string }) | undefined {
  return db
    .prepare(
      `SELECT u.*, m.name AS model FROM uploads u JOIN models m ON m.id = u.model_id
       WHERE u.digest = ? AND u.status IN ${LIVE_STATUSES} ORDER BY u.seq LIMIT 1`,
    )
    .get(digest) as (UploadRow & { model: string }) | undefined;
}

/** A run of this model on this lane that is still being scored. */
export function runInFlight(db: Db, modelId: string, lane: Lane): UploadRow | undefined {
  return db
    .prepare("SELECT * FROM uploads WHERE model_id = ? AND lane = ? AND status IN ('accepted', 'scoring') ORDER BY seq LIMIT 1")
    .get(modelId, lane) as UploadRow | undefined;
}

export function setRunStatus(db: Db, id: string, status: RunStatus): void {
  db.prepare("UPDATE uploads SET status = ? WHERE upload_id = ?").run(status, id);
}
