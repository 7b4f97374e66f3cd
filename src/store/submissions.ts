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
