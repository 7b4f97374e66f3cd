import type { ServiceContext } from "./deployment.js";

/**
 * A resumable unit of work: everything `fn` changes, and the record that step `index` is done,
 * commit together or not at all. The service's own transactions nest inside as savepoints. Only a
 * single-caller face (the replay engine) may use it: it holds the store's one transaction across awaits.
 */
export async function inStep(ctx: ServiceContext, index: number, fn: () => Promise<void>): Promise<void> {
  ctx.db.exec("BEGIN");
  try {
    await fn();
    ctx.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('steps_done', ?)").run(String(index + 1));
    ctx.db.exec("COMMIT");
  } catch (e) {
    if (ctx.db.inTransaction) ctx.db.exec("ROLLBACK");
    throw e;
  }
}

/** How many steps of a replay are committed (0 for a fresh store). */
export function stepsDone(ctx: ServiceContext): number {
  const row = ctx.db.prepare("SELECT value FROM meta WHERE key = 'steps_done'").get() as { value: string } | undefined;
  return row ? Number(row.value) : 0;
}
