import type { Db } from "./db.js";
import { mayHoldRows, rowsInserted } from "./lifecycle-tables.js";

/** `replaced`: a later upload of the same model took its place (its validation, if unfinished, is cancelled). */
export type ModelUploadStatus = "pending" | "validating" | "validated" | "error" | "replaced";

/** One model file uploaded for the auto-submit lane, as stored. */
export interface ModelUploadRow {
  upload_id: string;
  seq: number;
  model_id: string;
  filename: string;
  sha256: string;
  python_version: string;
  n_bytes: number;
  status: ModelUploadStatus;
  uploaded_at: number;
  validating_at: number;
  validates_at: number;
  validated_at: number | null;
  error: string | null;
}

export function modelUploadById(db: Db, uploadId: string): ModelUploadRow | undefined {
  return db.prepare("SELECT * FROM model_uploads WHERE upload_id = ?").get(uploadId) as ModelUploadRow | undefined;
}

/** The model's current file: its latest upload, whatever its status. */
export function currentModelUpload(db: Db, modelId: string): ModelUploadRow | undefined {
  if (!mayHoldRows(db, "model_uploads")) return undefined;
  return db.prepare("SELECT * FROM model_uploads WHERE model_id = ? ORDER BY seq DESC LIMIT 1").get(modelId) as
    | ModelUploadRow
    | undefined;
}

export function modelFileBytes(db: Db, sha256: string): Uint8Array {
  return (db.prepare("SELECT bytes FROM model_files WHERE sha256 = ?").get(sha256) as { bytes: Buffer }).bytes;
}

export function setModelUploadStatus(db: Db, uploadId: string, status: ModelUploadStatus): void {
  db.prepare("UPDATE model_uploads SET status = ? WHERE upload_id = ?").run(status, uploadId);
}

/** Keeps a model file's bytes once per content (shared by model uploads, event uploads and jobs' models). */
export function keepModelFile(db: Db, sha256: string | null, bytes: Uint8Array | undefined): void {
  db.prepare("INSERT OR IGNORE INTO model_files (sha256, bytes) VALUES (?, ?)").run(sha256, bytes);
}

/** Files a pending model upload. */
export function insertModelUpload(
  db: Db,
  u: Pick<ModelUploadRow, "upload_id" | "seq" | "model_id" | "filename" | "sha256" | "python_version" | "n_bytes" | "uploaded_at" | "validating_at" | "validates_at">,
): void {
  rowsInserted(db, "model_uploads");
  db.prepare(
    `INSERT INTO model_uploads (upload_id, seq, model_id, filename, sha256, python_version, n_bytes, status,
           uploaded_at, validating_at, validates_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
  ).run(u.upload_id, u.seq, u.model_id, u.filename, u.sha256, u.python_version, u.n_bytes, u.uploaded_at, u.validating_at, u.validates_at);
}

export function markModelUploadValidated(db: Db, uploadId: string, t: number): void {
  db.prepare("UPDATE model_uploads SET status = 'validated', validated_at = ? WHERE upload_id = ?").run(t, uploadId);
}

export function markModelUploadError(db: Db, uploadId: string, error: string): void {
  db.prepare("UPDATE model_uploads SET status = 'error', error = ? WHERE upload_id = ?").run(error, uploadId);
}

/** Model files whose validation has not ended. */
export function unvalidatedModelUploads(db: Db): ModelUploadRow[] {
  if (!mayHoldRows(db, "model_uploads")) return [];
  return db.prepare("SELECT * FROM model_uploads WHERE status IN ('pending', 'validating')").all() as ModelUploadRow[];
}
