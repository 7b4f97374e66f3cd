import type { Db } from "./db.js";

/** How many steps of a replay are committed (0 for a fresh store). */
export function stepsDone(db: Db): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'steps_done'").get() as { value: string } | undefined;
  return row ? Number(row.value) : 0;
}

/** Records that step `index` of a replay is done (within the step's own transaction). */
function markStepDone(db: Db, index: number): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('steps_done', ?)").run(String(index + 1));
}

/** The stored deployment's fingerprint (what a resumed store was made from); undefined for an empty store. */
export function storedDeployment(db: Db): string | undefined {
  const stored = db.prepare("SELECT value FROM meta WHERE key = 'deployment'").get() as { value: string } | undefined;
  return stored?.value;
}

export function storeDeployment(db: Db, fingerprint: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('deployment', ?)").run(fingerprint);
}

/**
 * A resumable unit of work: everything `fn` changes, and the record that step `index` is done,
 * commit together or not at all; transactions inside nest as savepoints. It holds the store's one
 * transaction across awaits, so only a single-caller face (the replay engine) may use it.
 */
export async function inStepTransaction(db: Db, index: number, fn: () => Promise<void>): Promise<void> {
  db.exec("BEGIN");
  try {
    await fn();
    markStepDone(db, index);
    db.exec("COMMIT");
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw e;
  }
}
