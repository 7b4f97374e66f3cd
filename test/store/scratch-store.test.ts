import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { processTempDir } from "../../src/data/temp-roots.js";
import { openScratchDb } from "../../src/store/scratch-store.js";

describe("a served deployment's store without --db", () => {
  it("is a file in a private temporary directory, kept on disk (WAL), and gone once closed", () => {
    const db = openScratchDb();
    const dir = dirname(db.name);
    expect(dirname(dir)).toBe(processTempDir("store"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.exec("CREATE TABLE scratch (bytes BLOB)");
    db.prepare("INSERT INTO scratch VALUES (?)").run(Buffer.alloc(1024 * 1024));
    expect(statSync(`${db.name}-wal`).size).toBeGreaterThan(1024 * 1024);
    db.close();
    expect(existsSync(dir)).toBe(false);
  });

  it("is removed when the process exits without closing it", () => {
    const code = `import("./src/store/scratch-store.ts").then((m) => { console.log(m.openScratchDb().name); process.exit(3); })`;
    let name = "";
    try {
      execFileSync(process.execPath, ["--import", "tsx", "-e", code], { encoding: "utf8" });
    } catch (e) {
      const { status, stdout } = e as { status: number; stdout: string };
      expect(status).toBe(3);
      name = stdout.trim();
    }
    expect(name).toMatch(/basecamp-store-.*store\.sqlite$/);
    expect(existsSync(dirname(name))).toBe(false);
  });
});
