import type { Db } from "./db.js";

/** Tables of lifecycles that many deployments never start: event uploads, model files, compute jobs, hosted machines, event stake windows. */
export type LifecycleTable = "uploads" | "model_uploads" | "compute_jobs" | "machine_sessions" | "stake_windows";

/**
 * Per connection, the lifecycle tables known to hold no row (false) or that may hold rows (true).
 * The steps due are looked for before every call of the service, in each of these tables: one
 * known empty is not asked again. A table is found empty by one look, and may hold rows from its
 * first insert on the connection on (rolled back or not) for as long as the connection lives.
 * Only the store's one connection writes to it (db.ts's lock), and every insert into these tables
 * goes through the store function that tells `rowsInserted`.
 */
const known = new WeakMap<Db, Map<LifecycleTable, boolean>>();

function knownOn(db: Db): Map<LifecycleTable, boolean> {
  let tables = known.get(db);
  if (!tables) known.set(db, (tables = new Map()));
  return tables;
}

/** Whether `table` may hold a row: false only when it is known to hold none. */
export function mayHoldRows(db: Db, table: LifecycleTable): boolean {
  const tables = knownOn(db);
  let may = tables.get(table);
  if (may === undefined) {
    // The last rowid: found at the end of the table's b-tree (null when empty), never by a scan.
    may = (db.prepare(`SELECT MAX(rowid) AS last FROM ${table}`).get() as { last: number | null }).last !== null;
    tables.set(table, may);
  }
  return may;
}

/** Called by the store function that inserts into `table`, before it inserts. */
export function rowsInserted(db: Db, table: LifecycleTable): void {
  knownOn(db).set(table, true);
}
