import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the checkpointing thread copies what the WAL holds back into the store file. */
const EVERY_MS = 250;

/** Checkpoints in a row that found nothing committed since the one before, before the WAL may be cut back: writes have paused for 2 s. */
const QUIET_TICKS = 8;

/**
 * The thread's code: its own connection to the store, and a PASSIVE checkpoint on a timer (it
 * copies every frame no reader still needs and never waits for a reader or the writer). A
 * checkpoint that finds the WAL busy is tried again at the next tick; any other failure ends the
 * thread with that error. Once QUIET_TICKS checkpoints in a row have found the WAL wholly copied
 * and nothing committed since the tick before (SQLite's `data_version`, which another connection's
 * commit changes: the WAL's frame count alone can stay the same while small commits each start
 * it over), a WAL file (`walFile`) larger than `keepBytes` is cut back to nothing: a TRUNCATE
 * checkpoint, which finds a reader or the writer busy at once and is then tried again after the
 * next quiet stretch. It holds the WAL's write lock while the file is cut, so a commit made just
 * then waits for it (on the writer's busy timeout, db.ts) once, after a pause.
 */
const CODE = `
const { statSync } = require("node:fs");
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0 });
const walBytes = () => {
  try {
    return statSync(workerData.walFile).size;
  } catch {
    return 0;
  }
};
let last = -1;
let quiet = 0;
setInterval(() => {
  try {
    const { log, checkpointed } = db.pragma("wal_checkpoint(PASSIVE)")[0];
    const version = db.pragma("data_version", { simple: true });
    quiet = log === checkpointed && version === last ? quiet + 1 : 0;
    last = version;
    if (quiet >= workerData.quietTicks && walBytes() > workerData.keepBytes) {
      db.pragma("wal_checkpoint(TRUNCATE)");
      quiet = 0;
    }
  } catch (e) {
    if (e.code !== "SQLITE_BUSY") throw e;
  }
}, workerData.everyMs);
`;

/**
 * Checkpoints a store file on a thread of its own. A checkpoint copies the WAL into the store
 * file and syncs it to disk, tens of milliseconds for a large predictions file: run by the
 * connection that committed (SQLite's automatic checkpoint), it held up every request behind
 * that commit. The thread also cuts the WAL file (`wal.file`) back once writes pause, if it grew
 * past `wal.keepBytes`. Cut by the writing connection as it started the WAL over (SQLite's
 * `journal_size_limit`), freeing a few hundred megabytes of file held that commit for 0.1-0.4 s,
 * several times while a batch of large files was stored. The writing connection turns its own
 * checkpoints and cuts off while this thread runs; `failed` is called if the thread ends with an
 * error, so that the writer takes them back rather than let the WAL grow. The thread does not keep the process alive; `stop` ends it.
 */
export function startCheckpointer(path: string, wal: { file: string; keepBytes: number }, failed: () => void): { stop: () => void } {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const workerData = { path, driver, everyMs: EVERY_MS, quietTicks: QUIET_TICKS, walFile: wal.file, keepBytes: wal.keepBytes };
  const thread = new Worker(CODE, { eval: true, workerData });
  thread.unref();
  let stopped = false;
  thread.on("error", () => {
    if (!stopped) failed();
  });
  return {
    stop: () => {
      stopped = true;
      void thread.terminate();
    },
  };
}
