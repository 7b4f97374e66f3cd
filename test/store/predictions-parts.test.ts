import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { runPredictions, writePart } from "../../src/store/upload-predictions.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-parts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (db: Database.Database) => (db.prepare("SELECT COUNT(*) AS n FROM predictions_parts").get() as { n: number }).n;

describe("predictions parts in a store file", () => {
  it("parts no upload links (a process stopped while staging a file) are gone when the store is opened again", () => {
    const path = join(dir, "staged.sqlite");
    const db = openDb(path);
    writePart(db, 7, 0, Buffer.from('["a",'), Buffer.alloc(8));
    writePart(db, 7, 1, Buffer.from('"b"]'), Buffer.alloc(8));
    expect(count(db)).toBe(2);
    db.close();
    const again = openDb(path);
    expect(count(again)).toBe(0);
    again.close();
  });

  it("migration 014 moves each upload's predictions, as the store kept them before, into one linked part", () => {
    const path = join(dir, "v13.sqlite");
    openDb(path).close();
    // The layout of version 13 (migration 011's predictions, 007's board index, no index of queued runs), with one upload and its predictions.
    const old = new Database(path);
    old.pragma("foreign_keys = OFF");
    old.exec(`
      DROP TABLE upload_predictions;
      DROP TABLE predictions_parts;
      CREATE TABLE upload_predictions (upload_id TEXT PRIMARY KEY REFERENCES uploads(upload_id), ids TEXT NOT NULL, predictions BLOB NOT NULL);
      CREATE INDEX uploads_board ON uploads(lane, round_window, status);
      DROP INDEX uploads_queued;
      INSERT INTO uploads (upload_id, seq, agent_id, model_id, lane, status, accepted_at, scoring_at, finishes_at, digest, n_rows, model_pkl_sha256, python_version)
        VALUES ('upl-1', 1, 'agt-1', 'mdl-1', 'practice', 'accepted', 0, 0, 0, 'd', 2, 's', '3.12');
    `);
    const values = Buffer.from(new Float64Array([0.25, 0.75]).buffer);
    old.prepare("INSERT INTO upload_predictions (upload_id, ids, predictions) VALUES ('upl-1', '[\"a\",\"b\"]', ?)").run(values);
    old.pragma("user_version = 13");
    old.close();
    const db = openDb(path);
    expect(db.pragma("user_version", { simple: true })).toBe(17);
    expect(runPredictions(db, "upl-1")).toEqual({ ids: '["a","b"]', predictions: values });
    expect(count(db)).toBe(1);
    db.close();
  });
});
