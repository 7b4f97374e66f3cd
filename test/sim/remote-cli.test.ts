import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BasecampClient } from "../../src/sdk/client.js";
import { killGroup } from "../helpers/process-tree.js";
import { smallScenario } from "../helpers/small-scenario.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin", "basecamp.js");

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  // The child leads its own process group: whatever it left running (tsx, the server), even after
  // it exited itself, goes with the group.
  killGroup(child);
  child = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The server's URL from its first stderr line (`basecamp: serving <file> at <url>/api/v1 ...`). */
function servedUrl(p: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    p.stderr?.setEncoding("utf8");
    p.stderr?.on("data", (chunk: string) => {
      seen += chunk;
      const match = / at (http:\/\/\S+)\/api\/v1 /.exec(seen);
      if (match) resolve(match[1]);
    });
    p.once("exit", (code) => reject(new Error(`basecamp serve exited (${code}) before serving:\n${seen}`)));
  });
}

describe("basecamp serve as a child process", () => {
  it("prints its URL on stderr, answers over HTTP, and exits 0 on SIGTERM with the port closed", async () => {
    dir = mkdtempSync(join(tmpdir(), "basecamp-serve-"));
    const file = join(dir, "small.json");
    writeFileSync(file, JSON.stringify(smallScenario()));
    child = spawn(process.execPath, [BIN, "serve", file, "--clock", "manual", "--port", "0"], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const url = await servedUrl(child);
    const alice = new BasecampClient({ baseUrl: url, apiKey: "key-alice-0001" });
    await expect(alice.getStarted()).resolves.toMatchObject({ agent: "alice", scope: "tournament" });

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    await expect(alice.explainScoring()).rejects.toThrow(/fetch failed/);
  });
});
