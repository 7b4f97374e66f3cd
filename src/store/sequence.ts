import type { Db } from "./db.js";

/** The next number of a named sequence; numbers are never handed out twice, even after deletes. */
export function nextInSequence(db: Db, name: string): number {
  const key = `seq:${name}`;
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  const next = (row ? Number(row.value) : 0) + 1;
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, String(next));
  return next;
}
