import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { canonicalJson } from "../../src/store/canonical-json.js";
import type { PlannedCell } from "./cells.js";
import type { CellOutcome } from "./run-cell.js";

/** A finished cell as the store keeps it. */
export interface StoredCell {
  index: number;
  status: "done" | "failed";
  outcome: CellOutcome;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sweep (plan_digest TEXT NOT NULL, cells INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS cells (
  idx INTEGER PRIMARY KEY,
  cell TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
  outcome TEXT NOT NULL,
  files_digest TEXT
);`;

/**
 * A sweep's results: one row per finished cell, written as it finishes, so a sweep stopped by a
 * crash or Ctrl-C resumes where it was. The store is bound to one plan (the digest of its
 * `identity`, every cell's JSON with its paths as the sweep file names them: plan-identity.ts):
 * resuming with a changed sweep file is refused rather than mixing two sweeps. Each cell's row
 * keeps the digest of the files it ran (cell-files.ts): a done cell whose files have changed since
 * is not done for --resume, which runs it again.
 */
export class ResultsStore {
  private readonly db: Database.Database;

  /** `shown` names the store in errors: `--out PATH`, or the default path. */
  constructor(
    readonly path: string,
    shown: string,
    cells: PlannedCell[],
    identity: unknown,
    resume: boolean,
    /** Each cell's digest of its files, as they are now (cellFileDigests). */
    private readonly files: Map<number, string>,
  ) {
    this.db = openStore(path, shown);
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.exec(SCHEMA);
      const digest = createHash("sha256").update(canonicalJson(identity)).digest("hex");
      // Checked and bound in one write transaction: a second sweep opening the store meanwhile waits for it.
      this.db
        .transaction(() => {
          const bound = this.db.prepare("SELECT plan_digest FROM sweep").get() as { plan_digest: string } | undefined;
          const finished = this.db.prepare("SELECT COUNT(*) FROM cells").pluck().get() as number;
          if (bound && bound.plan_digest !== digest) throw new Error(`${shown} holds the results of a different sweep; pass another --out`);
          if (finished > 0 && !resume) throw new Error(`${shown} already holds ${finished} finished cells; pass --resume to finish the sweep, or another --out`);
          if (!bound) this.db.prepare("INSERT INTO sweep (plan_digest, cells) VALUES (?, ?)").run(digest, cells.length);
          // A store made before cells kept their files' digest: its cells' are unknown (null), taken as current.
          const columns = this.db.prepare("SELECT name FROM pragma_table_info('cells')").pluck().all() as string[];
          if (!columns.includes("files_digest")) this.db.exec("ALTER TABLE cells ADD COLUMN files_digest TEXT");
        })
        .immediate();
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  /** Records a cell's outcome (a failed cell with its reason and traceback). */
  record(cell: PlannedCell, outcome: CellOutcome): void {
    this.db
      .prepare("INSERT OR REPLACE INTO cells (idx, cell, status, outcome, files_digest) VALUES (?, ?, ?, ?, ?)")
      .run(cell.index, JSON.stringify(cell.cell), outcome.ok ? "done" : "failed", JSON.stringify(outcome), this.files.get(cell.index) ?? null);
  }

  /**
   * The cells --resume skips, found without reading their outcomes: those done (not failed) with the
   * files they ran unchanged since; and those done with files that have changed, which run again.
   */
  done(): { done: Set<number>; changed: number[] } {
    const rows = this.db.prepare("SELECT idx, files_digest FROM cells WHERE status = 'done'").all() as { idx: number; files_digest: string | null }[];
    const current = (r: (typeof rows)[number]) => r.files_digest === null || r.files_digest === this.files.get(r.idx);
    return { done: new Set(rows.filter(current).map((r) => r.idx)), changed: rows.filter((r) => !current(r)).map((r) => r.idx) };
  }

  /** Every recorded cell, in the sweep's order. */
  finished(): StoredCell[] {
    return (this.db.prepare("SELECT idx, status, outcome FROM cells ORDER BY idx").all() as { idx: number; status: "done" | "failed"; outcome: string }[]).map((r) => ({
      index: r.idx,
      status: r.status,
      outcome: JSON.parse(r.outcome) as CellOutcome,
    }));
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Opens the store at `path`: a new or empty file, or a store a sweep made. Any other file (a SQLite
 * database of something else too) is refused before anything is written to it; each error is one
 * line starting with `shown`.
 */
function openStore(path: string, shown: string): Database.Database {
  let db: Database.Database | undefined;
  let tables: string[];
  try {
    db = new Database(path);
    tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  } catch (e) {
    db?.close();
    const { code, message } = e as { code?: string; message: string };
    throw new Error(code === "SQLITE_NOTADB" ? `${shown}: not a sweep results store (${message})` : `${shown}: ${message}`);
  }
  if (tables.length > 0 && !tables.includes("sweep")) {
    db.close();
    throw new Error(`${shown}: not a sweep results store (a SQLite database without its sweep table)`);
  }
  return db;
}
