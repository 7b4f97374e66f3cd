import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/commands/serve.js";
import { openDb } from "../../src/store/db.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-lock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const scenario = smallScenario();
const status = async (url: string) => (await fetch(`${url}/api/v1/status`, { headers: { "X-API-Key": "key-alice-0001" } })).status;

describe("one process holds a store file", () => {
  it("a second server on the same --db fails at once naming the file; the first keeps serving; once closed the file opens again", async () => {
    const db = join(dir, "serve.sqlite");
    const first = await startServer({ scenario, port: 0, db, log: () => {} });
    await expect(startServer({ scenario, port: 0, db, log: () => {} })).rejects.toThrow(
      `${db} is in use by another Basecamp process (serve, run or mcp on the same --db); stop it or use another file`,
    );
    expect(await status(first.url)).toBe(200);
    await first.close();
    const again = await startServer({ scenario, port: 0, db, log: () => {} });
    expect(await status(again.url)).toBe(200);
    await again.close();
  });

  it("a symbolic link to a store that is open names the same store: opening it fails naming the link", () => {
    const real = join(dir, "real.sqlite");
    const link = join(dir, "link.sqlite");
    const held = openDb(real);
    symlinkSync(real, link);
    expect(() => openDb(link)).toThrow(`${link} is in use by another Basecamp process`);
    held.close();
    openDb(link).close();
  });

  it("a file that is not a store is refused with SQLite's reason and holds no lock after; a missing directory is named", () => {
    const path = join(dir, "not-a-store.sqlite");
    writeFileSync(path, "not an SQLite file ".repeat(300));
    expect(() => openDb(path)).toThrow("file is not a database");
    expect(() => openDb(path)).toThrow("file is not a database");
    const nowhere = join(dir, "absent", "store.sqlite");
    expect(() => openDb(nowhere)).toThrow(`${nowhere}: the store's directory ${join(dir, "absent")} does not exist`);
  });

  it("`basecamp run --db` in another process, on a file a server holds, exits 1 with one line naming the file", async () => {
    const db = join(dir, "run.sqlite");
    const file = join(dir, "small.json");
    writeFileSync(file, JSON.stringify(scenario));
    const server = await startServer({ scenario, port: 0, db, log: () => {} });
    const run = promisify(execFile)(process.execPath, ["bin/basecamp.js", "run", file, "--db", db, "--plain"], { timeout: 60_000 });
    const failed = await run.then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe(`basecamp: ${db} is in use by another Basecamp process (serve, run or mcp on the same --db); stop it or use another file\n`);
    expect(await status(server.url)).toBe(200);
    await server.close();
  });
});
