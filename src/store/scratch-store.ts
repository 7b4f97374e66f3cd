import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { removeAtExit, removeNow } from "../data/exit-cleanup.js";
import { processTempDir } from "../data/temp-roots.js";
import { openDb, type Db } from "./db.js";

/**
 * A store in a file of its own, in a private (0700) temporary directory that closing removes: for
 * a served deployment given no `--db`. Kept in memory instead, every upload's predictions would
 * stay in the server's memory for its whole life (a batch of 25 large files: 425 MB more); in a
 * file they cost disk, and SQLite's page cache stays a few megabytes.
 */
export function openScratchDb(): Db {
  const dir = mkdtempSync(join(processTempDir("store"), "store-"));
  removeAtExit(dir); // should the process end without closing it
  let db: Db;
  try {
    db = openDb(join(dir, "store.sqlite"));
  } catch (e) {
    removeNow(dir);
    throw e;
  }
  const close = db.close.bind(db);
  db.close = () => {
    try {
      close();
    } finally {
      removeNow(dir);
    }
    return db;
  };
  return db;
}
