import type { Db } from "./db.js";

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
