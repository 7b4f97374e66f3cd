import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startCheckpointer } from "../../src/store/checkpointer.js";
import { openDb } from "../../src/store/db.js";
import { whenChanged } from "../helpers/when-changed.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIB = 1024 * 1024;

/** A WAL store of its own (no checkpoint of its own) whose WAL holds one 4 MiB commit, and a checkpointing thread that keeps 1 MiB of WAL. */
function storeWithLargeWal(name: string): { path: string; db: Database.Database; thread: { stop: () => void } } {
  const path = join(dir, name);
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("wal_autocheckpoint = 0");
  db.exec("CREATE TABLE scratch (bytes BLOB); CREATE TABLE tick (n INTEGER); INSERT INTO tick VALUES (0)");
  db.prepare("INSERT INTO scratch VALUES (?)").run(Buffer.alloc(4 * MIB, 7));
  expect(statSync(`${path}-wal`).size).toBeGreaterThan(4 * MIB);
  return { path, db, thread: startCheckpointer(path, { file: `${path}-wal`, keepBytes: MIB }, () => {}) };
}

describe("a store file's checkpoints", () => {
  it("a new store file has 4 KiB pages, runs WAL and never checkpoints on the connection that writes", () => {
    const db = openDb(join(dir, "settings.sqlite"));
    expect(db.pragma("page_size", { simple: true })).toBe(4096);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    db.close();
  });

  it("what a commit put in the WAL reaches the store file from another thread, and survives closing and opening again", async () => {
    const path = join(dir, "store.sqlite");
    const db = openDb(path);
    const before = statSync(path).size;
    db.exec("CREATE TABLE scratch (bytes BLOB)");
    db.prepare("INSERT INTO scratch VALUES (?)").run(Buffer.alloc(8 * MIB, 7));
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(8 * MIB);
    await whenChanged(path, () => statSync(path).size >= before + 8 * MIB);
    db.close();
    const again = openDb(path);
    expect((again.prepare("SELECT length(bytes) AS n FROM scratch").get() as { n: number }).n).toBe(8 * MIB);
    again.close();
  });

  it("the connection that writes never cuts the WAL file: the checkpointing thread cuts one grown past its size once writes pause", async () => {
    const store = openDb(join(dir, "writer.sqlite"));
    expect(store.pragma("journal_size_limit", { simple: true })).toBe(-1);
    store.close();
    const { path, db, thread } = storeWithLargeWal("cut.sqlite");
    await whenChanged(dir, () => statSync(`${path}-wal`).size === 0);
    thread.stop();
    expect((db.prepare("SELECT length(bytes) AS n FROM scratch").get() as { n: number }).n).toBe(4 * MIB);
    db.close();
  });

  it("does not cut the WAL file while commits go on", async () => {
    const { path, db, thread } = storeWithLargeWal("busy.sqlite");
    // Sixty small commits 50 ms apart: about twelve of the thread's ticks, each finding a commit since the one before.
    for (let i = 1; i <= 60; i++) {
      db.prepare("UPDATE tick SET n = ?").run(i);
      await new Promise((r) => setTimeout(r, 50));
    }
    thread.stop();
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(4 * MIB);
    db.close();
  });

  it("a checkpointing thread that fails says so, and one stopped first says nothing", async () => {
    const path = join(dir, "not-a-store.sqlite");
    writeFileSync(path, "this is not an SQLite file, and is long enough to have a header of sorts ".repeat(10));
    // Waits for the thread to say so (a thread that never does fails the test at its timeout).
    const wal = { file: `${path}-wal`, keepBytes: MIB };
    await new Promise<void>((resolve) => startCheckpointer(path, wal, resolve));
    let told = false;
    startCheckpointer(path, wal, () => (told = true)).stop();
    await new Promise((r) => setTimeout(r, 600));
    expect(told).toBe(false);
  });
});
