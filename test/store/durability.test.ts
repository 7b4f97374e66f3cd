import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-durability-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a store file's durability", () => {
  it("syncs every commit for the service, and at WAL checkpoints for a replay", () => {
    const served = openDb(join(dir, "serve.sqlite"));
    expect(served.pragma("synchronous", { simple: true })).toBe(2); // FULL
    served.close();
    const replayed = openDb(join(dir, "run.sqlite"), "replay");
    expect(replayed.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    expect(replayed.pragma("journal_mode", { simple: true })).toBe("wal");
    replayed.close();
  });
});
