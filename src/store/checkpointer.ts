import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the checkpointing thread copies what the WAL holds back into the store file. */
const EVERY_MS = 250;

/**
 * The thread's code: its own connection to the store, and a PASSIVE checkpoint on a timer (it
 * copies every frame no reader still needs and never waits for a reader or the writer). A
 * checkpoint that finds the WAL busy is tried again at the next tick; any other failure ends the
 * thread with that error.
 */
const CODE = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 0 });
setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (e) {
    if (e.code !== "SQLITE_BUSY") throw e;
  }
}, workerData.everyMs);
`;

/**
 * Checkpoints a store file on a thread of its own. A checkpoint copies the WAL into the store
 * file and syncs it to disk, tens of milliseconds for a large predictions file: run by the
 * connection that committed (SQLite's automatic checkpoint), it held up every request behind
 * that commit. The writing connection turns its own checkpoints off while this thread runs;
 * `failed` is called if the thread ends with an error, so that the writer takes them back rather
 * than let the WAL grow. The thread does not keep the process alive; `stop` ends it.
 */
export function startCheckpointer(path: string, failed: () => void): { stop: () => void } {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const thread = new Worker(CODE, { eval: true, workerData: { path, driver, everyMs: EVERY_MS } });
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
