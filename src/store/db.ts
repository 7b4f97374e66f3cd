import Database from "better-sqlite3";
import { sql as m001 } from "./migrations/001-tournament.js";
import { sql as m002 } from "./migrations/002-event-uploads.js";
import { sql as m003 } from "./migrations/003-event-staking.js";
import { sql as m004 } from "./migrations/004-tournament-staking.js";
import { sql as m005 } from "./migrations/005-model-files.js";
import { sql as m006 } from "./migrations/006-compute-jobs.js";
import { sql as m007 } from "./migrations/007-upload-indexes.js";
import { migrate as m008 } from "./migrations/008-key-digests.js";
import { sql as m009 } from "./migrations/009-compute-job-folds.js";
import { sql as m010 } from "./migrations/010-replay-indexes.js";
import { sql as m011 } from "./migrations/011-upload-predictions.js";
import { sql as m012 } from "./migrations/012-machine-sessions.js";
import { cacheStatements } from "./statement-cache.js";

export type Db = Database.Database;

/** A schema step: SQL, or a function for one that must compute its new rows (a digest). */
type Migration = string | ((db: Database.Database) => void);

/** Numbered migrations, applied in order; `PRAGMA user_version` records how many have run. */
const migrations: Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012];

/**
 * Opens (or creates) the store in WAL mode and brings its schema up to date. A store file is held
 * exclusively until closed, so a second process (a `serve`, `run` or `mcp` on the same `--db`)
 * fails at once with one line naming the file rather than interleaving its writes. Statements are
 * prepared once per connection (see `cacheStatements`).
 */
export function openDb(path = ":memory:"): Db {
  const db = new Database(path, { timeout: 0 });
  if (path !== ":memory:") holdExclusively(db, path);
  db.pragma("foreign_keys = ON");
  const applied = db.pragma("user_version", { simple: true }) as number;
  for (let i = applied; i < migrations.length; i++) {
    db.transaction(() => {
      const m = migrations[i];
      if (typeof m === "string") db.exec(m);
      else m(db);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
  cacheStatements(db);
  return db;
}

/**
 * WAL under SQLite's exclusive locking mode (the WAL index then lives in this process's memory):
 * the first write transaction takes the file's lock, and it is kept until the connection closes
 * (or the process dies: the operating system drops it, so no stale lock is ever left behind).
 * `synchronous = NORMAL`: a commit is written to the WAL before it is acknowledged, so every
 * acknowledged write outlives the process (a crash or kill -9); the disk is synced at each
 * checkpoint rather than at each commit, so a power loss or an operating-system crash may lose the
 * last commits (never the store's integrity). A commit costs about a tenth of a synced one.
 */
function holdExclusively(db: Db, path: string): void {
  try {
    db.pragma("locking_mode = EXCLUSIVE");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("BEGIN EXCLUSIVE; COMMIT");
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === "SQLITE_BUSY") {
      throw new Error(`${path} is in use by another Basecamp process (serve, run or mcp on the same --db); stop it or use another file`);
    }
    throw e;
  }
}

/** Rows inserted, updated or deleted on this connection since it opened (rolled-back ones too): a cheap "has anything been written?". */
export function totalChanges(db: Db): number {
  return (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
}

/** Runs `fn` in one transaction (a savepoint when an outer transaction is open). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn)();
}
