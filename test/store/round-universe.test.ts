import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { publishUniverse, roundUniverse } from "../../src/store/round-universe.js";
import { openDb, type Db } from "../../src/store/db.js";
import { countPrepares } from "../helpers/query-plans.js";

function scheduleRound(db: Db, exped: string): void {
  db.prepare("INSERT INTO rounds (exped, idx, open_at, close_at, resolves_at, status) VALUES (?, 1, 0, 1, 2, 'scheduled')").run(exped);
}

function publish(db: Db, exped: string, ids: string[]): void {
  const insert = db.prepare("INSERT INTO instruments (exped, pos, instrument_id) VALUES (?, ?, ?)");
  ids.forEach((id, pos) => insert.run(exped, pos, id));
}

/** How many times `db` is asked to prepare the instruments query from now on. */
const countReads = (db: Db) => countPrepares(db, "FROM instruments");

describe("a round's universe", () => {
  it("is the published ids in order with their positions, read from the store once; nothing is kept before the round opens", () => {
    const db = openDb();
    scheduleRound(db, "exped_0100");
    const reads = countReads(db);
    expect(roundUniverse(db, "exped_0100").ids).toEqual([]);
    publish(db, "exped_0100", ["c", "a", "b"]);
    const universe = roundUniverse(db, "exped_0100");
    expect(universe.ids).toEqual(["c", "a", "b"]);
    expect([...universe.position]).toEqual([["c", 0], ["a", 1], ["b", 2]]);
    expect(roundUniverse(db, "exped_0100")).toBe(universe);
    expect(reads()).toBe(2);
    db.close();
  });

  it("is kept per store: another connection to the same file (a resumed run) reads it afresh", () => {
    const file = join(mkdtempSync(join(tmpdir(), "universe-")), "store.db");
    const first = openDb(file);
    scheduleRound(first, "exped_0100");
    publish(first, "exped_0100", ["x", "y"]);
    const before = roundUniverse(first, "exped_0100");
    first.close();
    const resumed = openDb(file);
    const after = roundUniverse(resumed, "exped_0100");
    expect(after).not.toBe(before);
    expect(after.ids).toEqual(["x", "y"]);
    resumed.close();
  });

  it("is kept as published: publishUniverse stores the ids in order and its round's readers never read them back", () => {
    const db = openDb();
    scheduleRound(db, "exped_0100");
    const reads = countReads(db);
    publishUniverse(db, "exped_0100", ["c", "a", "b"]);
    const universe = roundUniverse(db, "exped_0100");
    expect(universe.ids).toEqual(["c", "a", "b"]);
    expect([...universe.position]).toEqual([["c", 0], ["a", 1], ["b", 2]]);
    expect(reads()).toBe(0);
    const stored = db.prepare("SELECT pos, instrument_id FROM instruments WHERE exped = ? ORDER BY pos").all("exped_0100");
    expect(stored).toEqual([{ pos: 0, instrument_id: "c" }, { pos: 1, instrument_id: "a" }, { pos: 2, instrument_id: "b" }]);
    db.close();
  });
});
