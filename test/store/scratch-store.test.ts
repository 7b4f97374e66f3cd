import { existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { openScratchDb } from "../../src/store/scratch-store.js";

describe("a served deployment's store without --db", () => {
  it("is a file in a private temporary directory, kept on disk (WAL), and gone once closed", () => {
    const db = openScratchDb();
    const dir = dirname(db.name);
    expect(dirname(dir)).toBe(tmpdir());
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.exec("CREATE TABLE scratch (bytes BLOB)");
    db.prepare("INSERT INTO scratch VALUES (?)").run(Buffer.alloc(1024 * 1024));
    expect(statSync(`${db.name}-wal`).size).toBeGreaterThan(1024 * 1024);
    db.close();
    expect(existsSync(dir)).toBe(false);
  });
});
