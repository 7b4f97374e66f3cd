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
  outcome TEXT NOT NULL
);`;

/**
 * A sweep's results: one row per finished cell, written as it finishes, so a sweep stopped by a
 * crash or Ctrl-C resumes where it was. The store is bound to one plan (the digest of its
 * `identity`, every cell's JSON with its paths as the sweep file names them: plan-identity.ts):
 * resuming with a changed sweep file is refused rather than mixing two sweeps.
 */
export class ResultsStore {
  private readonly db: Database.Database;

  constructor(
    readonly path: string,
    cells: PlannedCell[],
    identity: unknown,
    resume: boolean,
  ) {
    this.db = new Database(path);
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.exec(SCHEMA);
      const digest = createHash("sha256").update(canonicalJson(identity)).digest("hex");
      const bound = this.db.prepare("SELECT plan_digest FROM sweep").get() as { plan_digest: string } | undefined;
      const finished = this.finished().length;
      if (bound && bound.plan_digest !== digest) throw new Error(`${path} holds the results of a different sweep; pass another --out`);
      if (finished > 0 && !resume) throw new Error(`${path} already holds ${finished} finished cells; pass --resume to finish the sweep, or another --out`);
      if (!bound) this.db.prepare("INSERT INTO sweep (plan_digest, cells) VALUES (?, ?)").run(digest, cells.length);
    } catch (e) {
      this.db.close();
      throw e;
    }
  }

  /** Records a cell's outcome (a failed cell with its reason and traceback). */
  record(cell: PlannedCell, outcome: CellOutcome): void {
    this.db
      .prepare("INSERT OR REPLACE INTO cells (idx, cell, status, outcome) VALUES (?, ?, ?, ?)")
      .run(cell.index, JSON.stringify(cell.cell), outcome.ok ? "done" : "failed", JSON.stringify(outcome));
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
