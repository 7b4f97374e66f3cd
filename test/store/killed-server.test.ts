import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../src/store/db.js";
import { killGroup } from "../helpers/process-tree.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-killed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ALICE = "key-alice-0001";

describe("a server killed with SIGKILL (synchronous = NORMAL in WAL)", () => {
  it("loses no acknowledged write: every model answered 201 is in the store when it is opened again", async () => {
    const file = join(dir, "small.json");
    const db = join(dir, "killed.sqlite");
    writeFileSync(file, JSON.stringify(smallScenario()));
    const child = spawn(process.execPath, ["bin/basecamp.js", "serve", file, "--port", "0", "--db", db], { detached: true, stdio: ["ignore", "ignore", "pipe"] });
    try {
      const url = await servedAt(child.stderr!);
      const names = Array.from({ length: 20 }, (_, i) => `kept-${i}`);
      for (const name of names) {
        const r = await fetch(`${url}/api/v1/models`, { method: "POST", headers: { "X-API-Key": ALICE, "content-type": "application/json" }, body: JSON.stringify({ name }) });
        expect(r.status).toBe(201);
      }
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      expect((await exited)[1]).toBe("SIGKILL");

      const store = openDb(db);
      try {
        const kept = (store.prepare("SELECT name FROM models WHERE name LIKE 'kept-%' ORDER BY seq").all() as { name: string }[]).map((r) => r.name);
        expect(kept).toEqual(names);
        expect(store.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(store.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
      } finally {
        store.close();
      }
    } finally {
      killGroup(child);
    }
  });
});

/** The server's base URL, from the line it prints once listening. */
function servedAt(stderr: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    stderr.setEncoding("utf8");
    stderr.on("data", (chunk: string) => {
      seen += chunk;
      const m = / at (http:\/\/\S+)\/api\/v1/.exec(seen);
      if (m) resolve(m[1]);
    });
    stderr.on("end", () => reject(new Error(`the server stopped before listening:\n${seen}`)));
  });
}
