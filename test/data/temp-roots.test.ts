import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { removeLeftovers, tempRoot } from "../../src/data/temp-roots.js";
import { printed } from "../helpers/printed.js";
import { smallScenario } from "../helpers/small-scenario.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const OWNER = join(root, "test/fixtures/temp-roots/owner.ts");
const BIN = join(root, "bin/basecamp.js");

/** A temp dir of the test's own, as TMPDIR of every child: their roots live there, apart from everyone else's. */
const TMP = mkdtempSync(join(tmpdir(), "basecamp-temp-roots-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(TMP, { recursive: true, force: true });
});

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, TMPDIR: TMP }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return child;
}

interface Owner {
  child: ChildProcess;
  pid: number;
  /** Its per-process directories (uploads, mcp) and what it made in them (a worker dir, a download). */
  own: string[];
  made: string[];
}

async function owner(): Promise<Owner> {
  const child = start(["--import", "tsx", OWNER]);
  const line = JSON.parse(await printed(child, "stdout", /\n/)) as Omit<Owner, "child">;
  return { child, ...line };
}

const uid = process.getuid?.() ?? "user";
const rootOf = (kind: string) => join(TMP, `basecamp-${kind}-${uid}`);

describe("temporary directories outlive no process", () => {
  it("a process killed with SIGKILL leaves its directories; the next start removes them and keeps a live process's; SIGTERM removes a process's own", async () => {
    const [killed, live] = await Promise.all([owner(), owner()]);
    expect(killed.own).toEqual(["uploads", "mcp"].map((k) => join(rootOf(k), String(killed.pid))));
    expect(readdirSync(killed.own[0])).toHaveLength(1); // the spool, holding its file

    const gone = once(killed.child, "exit");
    killed.child.kill("SIGKILL");
    await gone;
    for (const dir of [...killed.own, ...killed.made]) expect(existsSync(dir), dir).toBe(true);

    // The next start: a real `basecamp serve`.
    const scenario = join(TMP, "small.json");
    writeFileSync(scenario, JSON.stringify(smallScenario()));
    const serve = start([BIN, "serve", scenario, "--port", "0"]);
    await printed(serve, "stderr", / at http:\S+\/api\/v1 /);
    for (const dir of [...killed.own, ...killed.made]) expect(existsSync(dir), dir).toBe(false);
    for (const dir of [...live.own, ...live.made]) expect(existsSync(dir), dir).toBe(true);
    const served = join(rootOf("store"), String(serve.pid));
    expect(readdirSync(served)).toHaveLength(1); // its store, there while it serves

    // SIGTERM: serve closes and exits; the owner, which has no handler of its own, dies of it. Neither leaves anything.
    const [stopped, ended] = [once(serve, "exit"), once(live.child, "exit")];
    serve.kill("SIGTERM");
    live.child.kill("SIGTERM");
    expect(await stopped).toEqual([0, null]);
    expect(await ended).toEqual([null, "SIGTERM"]);
    for (const dir of [served, ...live.own, ...live.made]) expect(existsSync(dir), dir).toBe(false);
  });
});

describe("removeLeftovers and the roots", () => {
  it("removes only the directories of pids that are gone: never a live one's, this process's, or a name that is no pid", () => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = mkdtempSync(join(TMP, "sweep-"));
    try {
      const gone = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }));
      const live = process.ppid; // the test runner, alive
      const root = tempRoot("uploads");
      for (const name of [String(gone), String(live), String(process.pid), "notes", "0"]) mkdirSync(join(root, name, "upload-x"), { recursive: true });
      expect(removeLeftovers("uploads")).toEqual([join(root, String(gone))]);
      expect(readdirSync(root).sort()).toEqual(["0", String(live), String(process.pid), "notes"].sort());
    } finally {
      process.env.TMPDIR = saved;
    }
  });

  it("refuses a root that is a symlink (another user could have planted it), naming it", async () => {
    const dir = mkdtempSync(join(TMP, "planted-"));
    const elsewhere = mkdtempSync(join(TMP, "elsewhere-"));
    symlinkSync(elsewhere, join(dir, `basecamp-ridge-${uid}`));
    const code = `import("./src/data/temp-roots.ts").then((m) => m.processTempDir("ridge")).catch((e) => { process.stdout.write(e.message); process.exit(3); })`;
    const child = spawn(process.execPath, ["--import", "tsx", "-e", code], { cwd: root, env: { ...process.env, TMPDIR: dir }, stdio: ["ignore", "pipe", "pipe"] });
    const said = printed(child, "stdout", /not a directory/);
    expect(await said).toBe(`${join(dir, `basecamp-ridge-${uid}`)} is not a directory of this user: remove it, or set TMPDIR elsewhere`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
