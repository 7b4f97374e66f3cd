import { describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";

describe("the statement cache", () => {
  it("prepares each SQL text once per connection, and each connection its own", () => {
    const db = openDb();
    const other = openDb();
    const sql = "SELECT value FROM meta WHERE key = ?";
    const first = db.prepare(sql);
    expect(db.prepare(sql)).toBe(first);
    expect(db.prepare("SELECT key FROM meta")).not.toBe(first);
    expect(other.prepare(sql)).not.toBe(first);
    db.close();
    other.close();
  });

  it("a shared statement answers each call with that call's parameters", () => {
    const db = openDb();
    const put = (key: string, value: string) => db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(key, value);
    const get = (key: string) => (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
    put("a", "1");
    put("b", "2");
    expect([get("a"), get("b"), get("c")]).toEqual(["1", "2", undefined]);
    db.close();
  });
});
