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
