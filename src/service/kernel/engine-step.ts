import { markStepDone } from "../../store/meta.js";
import type { ServiceContext } from "./context.js";

/**
 * A resumable unit of work: everything `fn` changes, and the record that step `index` is done,
 * commit together or not at all. The service's own transactions nest inside as savepoints. Only a
 * single-caller face (the replay engine) may use it: it holds the store's one transaction across awaits.
 */
export async function inStep(ctx: ServiceContext, index: number, fn: () => Promise<void>): Promise<void> {
  ctx.db.exec("BEGIN");
  try {
    await fn();
    markStepDone(ctx.db, index);
    ctx.db.exec("COMMIT");
  } catch (e) {
    if (ctx.db.inTransaction) ctx.db.exec("ROLLBACK");
    throw e;
  }
}
