import type Database from "better-sqlite3";

/** The store's connection (named here as db.ts names it: db.ts opens the store and sweeps unlinked parts with this file). */
type Db = Database.Database;

/**
 * An upload's parsed predictions: the ids in file order as JSON text, and the values (float64 LE).
 * They are kept in parts under a stage number (migration 014): a large file's parts are written
 * one short transaction at a time before its upload is accepted, and the accepting commit links
 * the stage to the upload (`linkStage`); a small file's single part is written by that commit.
 */
export interface StoredPredictions {
  ids: string;
  predictions: Buffer;
}

/** A stage number no part holds yet. */
export function newStage(db: Db): number {
  return (db.prepare("SELECT COALESCE(MAX(stage), 0) + 1 AS stage FROM predictions_parts").get() as { stage: number }).stage;
}

/** Writes one part of a stage: `ids`, a slice of the ids' JSON text in UTF-8; `predictions`, a slice of the values. */
export function writePart(db: Db, stage: number, part: number, ids: Buffer, predictions: Buffer): void {
  db.prepare("INSERT INTO predictions_parts (stage, part, ids, predictions) VALUES (?, ?, ?, ?)").run(stage, part, ids, predictions);
}

/** Makes a stage's parts the predictions of an accepted upload. */
export function linkStage(db: Db, uploadId: string, stage: number): void {
  db.prepare("INSERT INTO upload_predictions (upload_id, stage) VALUES (?, ?)").run(uploadId, stage);
}

/** An upload's predictions in one part, with its link: for a small file, in the accepting transaction. */
export function insertPredictions(db: Db, uploadId: string, ids: Buffer, predictions: Buffer): void {
  const stage = newStage(db);
  writePart(db, stage, 0, ids, predictions);
  linkStage(db, uploadId, stage);
}

/** A run's stored predictions: its parts put back together in order. */
export function runPredictions(db: Db, uploadId: string): StoredPredictions {
  const parts = db
    .prepare("SELECT p.ids, p.predictions FROM upload_predictions u JOIN predictions_parts p ON p.stage = u.stage WHERE u.upload_id = ? ORDER BY p.part")
    .all(uploadId) as { ids: Buffer; predictions: Buffer }[];
  if (parts.length === 0) throw new Error(`no stored predictions for upload ${uploadId}`);
  return { ids: Buffer.concat(parts.map((p) => p.ids)).toString("utf8"), predictions: Buffer.concat(parts.map((p) => p.predictions)) };
}

/** Removes one part of a stage no upload links (an upload refused after its file was staged). */
export function dropPart(db: Db, stage: number, part: number): void {
  db.prepare("DELETE FROM predictions_parts WHERE stage = ? AND part = ? AND stage NOT IN (SELECT stage FROM upload_predictions)").run(stage, part);
}

/** Removes an upload's link and its parts. */
export function deletePredictions(db: Db, uploadId: string): void {
  db.prepare("DELETE FROM predictions_parts WHERE stage = (SELECT stage FROM upload_predictions WHERE upload_id = ?)").run(uploadId);
  db.prepare("DELETE FROM upload_predictions WHERE upload_id = ?").run(uploadId);
}

/** Removes every part no upload links: what a process stopped while staging a file left behind. */
export function dropUnlinkedParts(db: Db): void {
  db.prepare("DELETE FROM predictions_parts WHERE stage NOT IN (SELECT stage FROM upload_predictions)").run();
}
