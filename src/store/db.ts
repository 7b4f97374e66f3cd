import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
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
import { sql as m013 } from "./migrations/013-read-indexes.js";
import { sql as m014 } from "./migrations/014-predictions-parts.js";
import { sql as m015 } from "./migrations/015-drop-board-index.js";
import { sql as m016 } from "./migrations/016-live-model-names.js";
import { sql as m017 } from "./migrations/017-queued-runs.js";
import { cacheStatements } from "./statement-cache.js";
import { startCheckpointer } from "./checkpointer.js";
import { dropUnlinkedParts } from "./upload-predictions.js";

export type Db = Database.Database;

/** A schema step: SQL, or a function for one that must compute its new rows (a digest). */
type Migration = string | ((db: Database.Database) => void);

/** Numbered migrations, applied in order; `PRAGMA user_version` records how many have run. */
const migrations: Migration[] = [m001, m002, m003, m004, m005, m006, m007, m008, m009, m010, m011, m012, m013, m014, m015, m016, m017];

/**
 * Opens (or creates) the store in WAL mode and brings its schema up to date. A store file is held
 * exclusively until closed (see `holdExclusively`), so a second process (a `serve`, `run` or `mcp`
 * on the same `--db`) fails at once with one line naming the file rather than interleaving its
 * writes. Statements are prepared once per connection (see `cacheStatements`).
 */
export function openDb(path = ":memory:"): Db {
  if (path === ":memory:") return upToDate(new Database(path));
  const lock = holdExclusively(path);
  let db: Db | undefined;
  try {
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    keepOnDisk(db, path, lock);
    return upToDate(db);
  } catch (e) {
    // Closing the store gives up its lock whatever it finds (keepOnDisk); the error told is the one that stopped the open.
    try {
      if (db) db.close();
      else lock.close();
    } catch {
      // reported by `e`
    }
    throw e;
  }
}

/** A migrated empty in-memory store, serialised: made by the process's first openSmallDb. */
let emptyStore: Buffer | undefined;

/**
 * A fresh in-memory store for a run known to stay small (a backtest's walk holds its rounds'
 * predictions: megabytes), copied from a migrated empty store made once per process instead of
 * running every migration again (about 3 ms a store, a sweep cell's). The copy is SQLite's
 * deserialised database, which SQLite caps at 1 GiB: a replay that may grow larger takes `openDb()`.
 */
export function openSmallDb(): Db {
  if (!emptyStore) {
    const empty = openDb();
    emptyStore = empty.serialize();
    empty.close();
  }
  return upToDate(new Database(emptyStore));
}

/** The schema brought up to date, statements cached, and the parts of files a stopped process was staging removed. */
function upToDate(db: Db): Db {
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
  dropUnlinkedParts(db);
  return db;
}

/**
 * How long a file store's connection waits for a lock the checkpointing thread's connection holds
 * (the WAL's own locks): a PASSIVE checkpoint rarely holds one a writer needs, and briefly; the
 * cut of a WAL file grown large after writes pause holds the write lock while the file system
 * frees it (0.1-0.4 s for a few hundred megabytes here), and a commit then waits rather than fail.
 */
const BUSY_TIMEOUT_MS = 10_000;

/**
 * Pages of a new store file. A commit writes each page it touched whole into the WAL, with a
 * checksum over it: an upload's commit touches a dozen pages (its row, the indexes, the log), so
 * 4 KiB pages make the commits of a served event's serial path two to three times cheaper than
 * 16 KiB ones (0.5-0.85 against 1.2-2.2 ms for an upload's three), while a 20 MiB predictions file
 * takes 1.3-1.9 times as long to store (26-47 against 20-25 ms), on a shared machine
 * (`npm run bench -- store-commits`).
 */
const PAGE_BYTES = 4 * 1024;

/** A WAL file larger than this is cut back once writes pause, so a burst of large uploads does not keep its disk. */
const WAL_KEEP_BYTES = 64 * 1024 * 1024;

/** SQLite's own default: the writer checkpoints once the WAL holds this many pages. */
const WRITER_CHECKPOINT_PAGES = 1000;

/**
 * The lock that keeps a store file to one process: SQLite's exclusive locking mode on a companion
 * file `<store>-lock` beside the real file (a symbolic link to the store names the same lock),
 * whose lock the first write transaction takes and keeps until the connection closes (or the
 * process dies: the operating system drops it, so no stale lock is ever left behind). The store
 * itself is opened in SQLite's normal locking mode, so that a second thread of this process can
 * checkpoint it.
 */
function holdExclusively(path: string): Database.Database {
  const lock = new Database(`${realFile(path)}-lock`, { timeout: 0 });
  try {
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE; COMMIT");
    return lock;
  } catch (e) {
    lock.close();
    if ((e as { code?: string }).code === "SQLITE_BUSY") {
      throw new Error(`${path} is in use by another Basecamp process (serve, run or mcp on the same --db); stop it or use another file`);
    }
    throw e;
  }
}

/** The file `path` names once links are followed (for a file yet to be made: in its directory's real path). */
function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      throw new Error(`${path}: the store's directory ${dirname(path)} does not exist`);
    }
  }
}

/**
 * WAL with `synchronous = NORMAL`: a commit is written to the WAL before it is acknowledged, so
 * every acknowledged write outlives the process (a crash or kill -9); the disk is synced at each
 * checkpoint rather than at each commit, so a power loss or an operating-system crash may lose the
 * last commits (never the store's integrity). A commit costs about a tenth of a synced one.
 * Checkpoints run on a thread of their own (`startCheckpointer`; should it fail, this connection
 * takes them back). Closing the store stops the thread, checkpoints what is left, and gives up
 * the lock.
 */
function keepOnDisk(db: Db, path: string, lock: Database.Database): void {
  let checkpointer: { stop: () => void } | null = null;
  const close = db.close.bind(db);
  db.close = () => {
    try {
      checkpointer?.stop();
      if (db.open) checkpointRest(db);
    } finally {
      close();
      lock.close();
    }
    return db;
  };
  db.pragma(`page_size = ${PAGE_BYTES}`); // takes effect only on a new file
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("journal_size_limit = -1");
  db.pragma("wal_autocheckpoint = 0");
  checkpointer = startCheckpointer(path, { file: `${realFile(path)}-wal`, keepBytes: WAL_KEEP_BYTES }, () => {
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`);
  });
}

/** Copies what the WAL still holds into the store file and empties it; a WAL left busy is recovered on the next open. */
function checkpointRest(db: Db): void {
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } catch (e) {
    if ((e as { code?: string }).code !== "SQLITE_BUSY") throw e;
  }
}

/** Rows inserted, updated or deleted on this connection since it opened (rolled-back ones too): a cheap "has anything been written?". */
export function totalChanges(db: Db): number {
  return (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
}

/**
 * One transaction function per connection, taking the work as its argument: better-sqlite3's
 * `db.transaction(fn)` builds four wrapper functions and their properties on every call, a cost a
 * replay step paid several times over (it chooses a savepoint or not on each call, as before).
 */
const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/** Runs `fn` in one transaction (a savepoint when an outer transaction is open). */
export function inTransaction<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((work: () => unknown) => work())));
  return run(fn) as T;
}
