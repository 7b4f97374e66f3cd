import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { lockWindowRows, unsettledWindows } from "../../src/store/event-stakes.js";
import { mayHoldRows } from "../../src/store/lifecycle-tables.js";
import { countPrepares } from "../helpers/query-plans.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-lifecycle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("lifecycle tables known empty", () => {
  it("a table found empty is not asked again until its store function inserts, rolled back or not; then always", () => {
    const db = openDb();
    const asked = countPrepares(db, "FROM stake_windows WHERE settled_at IS NULL");
    expect(unsettledWindows(db)).toEqual([]);
    expect(unsettledWindows(db)).toEqual([]);
    expect(asked()).toBe(0);
    expect(() =>
      db.transaction(() => {
        lockWindowRows(db, "round_1", 1, 0, 1, 1);
        throw new Error("rolled back");
      })(),
    ).toThrow("rolled back");
    expect(unsettledWindows(db)).toEqual([]);
    lockWindowRows(db, "round_1", 1, 0, 1, 1);
    expect(unsettledWindows(db)).toEqual(["round_1"]);
    expect(asked()).toBe(2);
    db.close();
  });

  it("a store opened with rows (a resumed one) is asked from its first look", () => {
    const path = join(dir, "store.sqlite");
    const first = openDb(path);
    lockWindowRows(first, "round_1", 1, 0, 1, 1);
    first.close();
    const again = openDb(path);
    expect(mayHoldRows(again, "stake_windows")).toBe(true);
    expect(mayHoldRows(again, "compute_jobs")).toBe(false);
    expect(unsettledWindows(again)).toEqual(["round_1"]);
    again.close();
  });
});
