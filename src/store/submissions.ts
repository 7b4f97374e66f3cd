import type { Db } from "./db.js";

/** A round's entry as settlement reads it. */
export interface RoundEntry {
  model_id: string;
  model: string;
  predictions: Buffer;
}

/** The round's entries, by model id. */
export function roundEntries(db: Db, exped: string): RoundEntry[] {
  return db
    .prepare(
      `SELECT s.model_id, m.name AS model, s.predictions FROM submissions s JOIN models m ON m.id = s.model_id
       WHERE s.exped = ? ORDER BY s.model_id`,
    )
    .all(exped) as RoundEntry[];
}

/** The model's entry for the round, if it has one. */
export function entryIdOf(db: Db, modelId: string, exped: string): string | undefined {
  const row = db.prepare("SELECT id FROM submissions WHERE model_id = ? AND exped = ?").get(modelId, exped) as { id: string } | undefined;
  return row?.id;
}

/** Whether the model has an entry for the round. */
export function hasEntry(db: Db, modelId: string, exped: string): boolean {
  return db.prepare("SELECT 1 FROM submissions WHERE model_id = ? AND exped = ?").get(modelId, exped) !== undefined;
}

/** How many entries the round has. */
export function entryCount(db: Db, exped: string): number {
  const { n } = db.prepare("SELECT COUNT(*) AS n FROM submissions WHERE exped = ?").get(exped) as { n: number };
  return n;
}

/** The model's entry for the round: its id and revision. */
export function entryOf(db: Db, modelId: string, exped: string): { id: string; revision: number } | undefined {
  return db.prepare("SELECT id, revision FROM submissions WHERE model_id = ? AND exped = ?").get(modelId, exped) as
    | { id: string; revision: number }
    | undefined;
}

/** A manual submission's new revision: it always wins, replacing an auto-submit lane entry like any other. */
export function reviseEntry(db: Db, id: string, t: number, revision: number, predictions: Buffer): void {
  db.prepare("UPDATE submissions SET submitted_at = ?, revision = ?, predictions = ?, source = 'manual' WHERE id = ?").run(t, revision, predictions, id);
}

/** How many entries were ever filed: the last rowid (entries are never deleted), found at the end of the table's b-tree. */
export function lastEntryRowid(db: Db): number {
  const { n } = db.prepare("SELECT COALESCE(MAX(rowid), 0) AS n FROM submissions").get() as { n: number };
  return n;
}

export function insertEntry(db: Db, e: { id: string; model_id: string; exped: string; t: number; blob: Buffer; source: "manual" | "auto" }): void {
  db.prepare("INSERT INTO submissions (id, model_id, exped, submitted_at, revision, predictions, source) VALUES (?, ?, ?, ?, 1, ?, ?)").run(
    e.id,
    e.model_id,
    e.exped,
    e.t,
    e.blob,
    e.source,
  );
}
