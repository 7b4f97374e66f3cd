import { describe, expect, it } from "vitest";
import { openDb, openSmallDb, type Db } from "../../src/store/db.js";

const schema = (db: Db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();

describe("a small in-memory store (a backtest's walk)", () => {
  it("has the schema, version and settings of a migrated fresh store, and each is a store of its own", () => {
    const fresh = openDb();
    const a = openSmallDb();
    const b = openSmallDb();
    expect(schema(a)).toEqual(schema(fresh));
    expect(a.pragma("user_version", { simple: true })).toBe(fresh.pragma("user_version", { simple: true }));
    expect(a.pragma("foreign_keys", { simple: true })).toBe(1);
    a.prepare("INSERT INTO rounds (exped, idx, open_at, close_at, resolves_at, status) VALUES ('exped_0001', 1, 0, 1, 2, 'scheduled')").run();
    expect(a.prepare("SELECT COUNT(*) AS n FROM rounds").get()).toEqual({ n: 1 });
    expect(b.prepare("SELECT COUNT(*) AS n FROM rounds").get()).toEqual({ n: 0 });
    expect(openSmallDb().prepare("SELECT COUNT(*) AS n FROM rounds").get()).toEqual({ n: 0 });
    for (const db of [fresh, a, b]) db.close();
  });
});
