import { execFile, spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { copyFile, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalJson } from "../store/canonical-json.js";
import { launchSandbox, type Bind, type CpuShare, type SandboxLaunch, type SandboxLimits } from "./sandbox.js";
import { sandboxPython } from "./sandbox-python.js";
import { makeWorkDir, removeWorkDir } from "./work-dir.js";
import type { Command } from "./worker-process.js";

const SERVER = fileURLToPath(new URL("./python/fork_server.py", import.meta.url));
const LAUNCHER = fileURLToPath(new URL("./python/fork_launcher.py", import.meta.url));
const WORKER = fileURLToPath(new URL("./python/worker.py", import.meta.url));
/** Where the sandbox sees a server's folder: worker.py and the source of the worker it forks next, as a fresh worker's sandbox has them. */
const INSIDE = "/participant";
/** The server's stderr, in its folder: the launcher tells its last line when the server ends before the worker. */
const SERVER_LOG = "server.log";

/** A worker's source, as the sandbox sees it at /participant/<name>. */
export interface ForkedSource {
  name: "strategy.py" | "model.pkl";
  bytes: Uint8Array;
}

/** One worker about to be forked: the command Node spawns for it (the launcher) and the sandbox's verdict on it. */
export interface ForkLaunch {
  /** fork_launcher.py: it stands for the worker (its descriptors, its exit status, killed to stop it); calls count the server's tree's CPU time. */
  command: Command;
  /** The source's path inside the sandbox. */
  path: string;
  /** Why the sandbox's bounds stopped the worker (its memory limit), or null. */
  stoppedBy(): string | null;
  /** Once the worker has ended: its server takes the next one, or is closed if its bounds stopped this one. */
  release(): Promise<void>;
}

/** A warm interpreter in a sandbox of its own (python/fork_server.py), forking one worker at a time. */
interface Server {
  key: string;
  dir: string;
  folder: string;
  child: ChildProcess;
  pid: number;
  sandbox: SandboxLaunch;
  /** The control fifo, held open so that a launcher's line never waits for a reader. */
  fifo: number;
  ended: Promise<void>;
  alive: boolean;
}

/**
 * Fork servers for one process's Python workers: a worker of a source that shares its sandbox's
 * limits and CPU share with an idle server is forked by it (in milliseconds, numpy, pandas and
 * cloudpickle already imported) instead of starting a sandbox and an interpreter of its own. Each
 * server runs one worker at a time, so a worker has the sandbox to itself as a fresh one has: the
 * same bounds (memory, processes and CPU quota for the sandbox as a whole, its rlimits per
 * process), paths, user and environment, an empty scratch and no process left by the worker
 * before (fork_server.py clears them). What a server holds over from one worker to the next is
 * the imported modules and the sandbox itself: a worker's code could reach the server (same user,
 * same namespaces) and so the workers it forks later. That suits running one user's own files (a
 * sweep's cells), not strangers' code side by side: served deployments start a sandbox per worker.
 */
export class ForkServers {
  private readonly idle: Server[] = [];
  private readonly all = new Set<Server>();
  private launches = 0;
  private closed = false;

  /** A launch for a worker of `source` with worker.py's `args`, in a server of `limits` and `share` (started if none is idle). */
  async launch(source: ForkedSource, args: string[], limits: SandboxLimits, share: CpuShare, log?: string): Promise<{ ok: true; launch: ForkLaunch } | { ok: false; error: string }> {
    if (this.closed) return { ok: false, error: "the fork servers are closed" };
    const python = await sandboxPython();
    if (!python.ok) return python;
    const key = canonicalJson({ limits, share });
    const at = this.idle.findIndex((s) => s.key === key && s.alive);
    let server: Server;
    if (at >= 0) server = this.idle.splice(at, 1)[0];
    else {
      const started = await this.start(python, key, limits, share);
      if (!started.ok) return started;
      server = started.server;
    }
    try {
      await Promise.all(["strategy.py", "model.pkl"].map((name) => rm(join(server.folder, name), { force: true })));
      await writeFile(join(server.folder, source.name), source.bytes);
    } catch (e) {
      void this.stop(server);
      return { ok: false, error: `the worker's source cannot be written: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const name = `launch-${++this.launches}.sock`;
    const command: Command = {
      file: python.path,
      args: ["-I", "-S", LAUNCHER, server.folder, name, String(server.pid), JSON.stringify(args)],
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
      cwd: "/",
      log,
      cpuRoot: server.pid,
    };
    return {
      ok: true,
      launch: {
        command,
        path: `${INSIDE}/${source.name}`,
        stoppedBy: () => server.sandbox.stoppedBy(),
        release: async () => {
          if (!server.alive || this.closed || server.sandbox.stoppedBy() !== null) return this.stop(server);
          this.idle.push(server);
        },
      },
    };
  }

  /** Stops every server (and so the worker it runs). */
  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((s) => this.stop(s)));
  }

  private async start(python: { path: string; binds: Bind[] }, key: string, limits: SandboxLimits, share: CpuShare): Promise<{ ok: true; server: Server } | { ok: false; error: string }> {
    let made: { dir: string; scratch: string } | undefined;
    let fifo: number;
    let log: number;
    try {
      made = await makeWorkDir(limits.scratch_bytes);
      const folder = join(made.dir, "participant");
      await mkdir(folder);
      await copyFile(WORKER, join(folder, "worker.py"));
      await copyFile(SERVER, join(folder, "fork_server.py"));
      await makeFifo(join(folder, "control"));
      fifo = openSync(join(folder, "control"), "r+");
      log = openSync(join(folder, SERVER_LOG), "a");
    } catch (e) {
      if (made) await removeWorkDir(made.dir);
      return { ok: false, error: `the fork server's directory cannot be made: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    const { dir, scratch } = made;
    const folder = join(dir, "participant");
    const args = ["-B", `${INSIDE}/fork_server.py`, `${INSIDE}/control`];
    const started = launchSandbox({ python, scratch, files: { [INSIDE]: folder }, args, keep: 3, share }, limits);
    if (!started.ok) {
      closeSync(fifo);
      closeSync(log);
      await removeWorkDir(dir);
      return started;
    }
    const { command } = started.launch;
    let child: ChildProcess;
    try {
      child = spawn(command.file, command.args, { env: command.env, cwd: command.cwd, detached: true, stdio: ["ignore", "ignore", log] });
    } finally {
      closeSync(log); // the server holds its own copy
    }
    let ended!: () => void;
    const server: Server = { key, dir, folder, child, pid: child.pid ?? 0, sandbox: started.launch, fifo, ended: new Promise((r) => (ended = r)), alive: child.pid !== undefined };
    if (!server.alive) ended();
    child.on("error", () => {});
    child.on("close", () => {
      server.alive = false;
      ended();
      void this.stop(server); // a server that ended by itself (a worker killed it) is cleared away at once
    });
    this.all.add(server);
    if (!server.alive) {
      await this.stop(server);
      return { ok: false, error: "the fork server could not start" };
    }
    return { ok: true, server };
  }

  /** Kills a server's sandbox and removes what it had. */
  private async stop(server: Server): Promise<void> {
    if (!this.all.delete(server)) return;
    const idle = this.idle.indexOf(server);
    if (idle >= 0) this.idle.splice(idle, 1);
    if (server.alive) {
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // already gone
      }
      await server.ended;
    }
    closeSync(server.fifo);
    await server.sandbox.release();
    await removeWorkDir(server.dir);
  }
}

/** A fifo the sandbox's user may read and write (mkfifo(1): Node has no call for it). */
function makeFifo(path: string): Promise<void> {
  return new Promise((resolve, reject) => execFile("mkfifo", ["-m", "0666", path], (error) => (error ? reject(error) : resolve())));
}
