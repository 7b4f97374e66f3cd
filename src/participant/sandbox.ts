import { execFile } from "node:child_process";
import { findPython, PREDICT_MODULES } from "../data/python-interpreter.js";
import { BULK_NICE } from "../data/thread-priority.js";
import type { Command } from "./worker-process.js";

/** The unprivileged user a sandbox runs as when Basecamp itself runs as root ("nobody"). */
export const SANDBOX_UID = 65534;

/** The rlimits a sandboxed worker sets on itself before any participant code loads (worker.py). */
export interface SandboxLimits {
  memory_bytes: number;
  cpu_seconds: number;
  /** Processes and threads, counted in the sandbox's own user namespace. */
  processes: number;
  file_size_bytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memory_bytes: 4 * 1024 ** 3,
  cpu_seconds: 3600,
  processes: 64,
  file_size_bytes: 1024 ** 3,
};

/** The variables a sandboxed (and a trusted) worker runs with: fixed hashing, one BLAS thread. */
export const WORKER_ENV = {
  PYTHONHASHSEED: "0",
  PYTHONDONTWRITEBYTECODE: "1",
  OPENBLAS_NUM_THREADS: "1",
  OMP_NUM_THREADS: "1",
  MKL_NUM_THREADS: "1",
};

/** Where the sandbox's only writable directory (the worker's scratch dir) appears inside it. */
export const SANDBOX_SCRATCH = "/tmp";

export type SandboxPython = { ok: true; path: string; binds: string[] } | { ok: false; error: string };

let python: Promise<SandboxPython> | null = null;

/**
 * The interpreter a sandbox runs, probed once: findPython()'s when it lives under /usr (which the
 * sandbox sees read-only), else /usr/bin/python3 when it has the modules, else findPython()'s with
 * its prefixes and import paths bound read-only.
 */
export function sandboxPython(): Promise<SandboxPython> {
  python ??= pickSandboxPython();
  return python;
}

async function pickSandboxPython(): Promise<SandboxPython> {
  const found = await findPython();
  if (!found.ok) return found;
  const exe = await pythonFacts(found.path);
  if (!exe.ok) return exe;
  if (exe.executable.startsWith("/usr/")) return { ok: true, path: exe.executable, binds: [] };
  const system = await pythonFacts("/usr/bin/python3", PREDICT_MODULES);
  if (system.ok) return { ok: true, path: "/usr/bin/python3", binds: [] };
  const binds = [...new Set(exe.roots.filter((p) => !p.startsWith("/usr/")))];
  return { ok: true, path: exe.executable, binds };
}

type Facts = { ok: true; executable: string; roots: string[] } | { ok: false; error: string };

/** The interpreter's real executable and the directories it reads from (prefixes, import paths). */
function pythonFacts(path: string, modules: readonly string[] = []): Promise<Facts> {
  const code = [
    `import json, os, sys${modules.map((m) => `, ${m}`).join("")}`,
    "paths = [sys.prefix, sys.base_prefix, sys.exec_prefix] + [p for p in sys.path if os.path.isdir(p)]",
    "print(json.dumps([os.path.realpath(sys.executable), [os.path.realpath(p) for p in paths]]))",
  ].join("\n");
  return new Promise((resolve) => {
    execFile(path, ["-c", code], { timeout: 30_000 }, (error, stdout) => {
      if (error) return resolve({ ok: false, error: `the interpreter ${path} cannot be inspected: ${error.message.split("\n")[0]}` });
      const [executable, roots] = JSON.parse(stdout) as [string, string[]];
      resolve({ ok: true, executable, roots });
    });
  });
}

export interface SandboxSpec {
  python: { path: string; binds: string[] };
  /** The worker's host directory bound writable at SANDBOX_SCRATCH. */
  scratch: string;
  /** Host files bound read-only into the sandbox, by their path inside it. */
  files: Record<string, string>;
  /** The interpreter's arguments, with paths as the sandbox sees them. */
  args: string[];
}

/**
 * The bubblewrap command for a sandboxed worker: every namespace unshared (no network, its own
 * PIDs so nothing it starts outlives it), a read-only /usr and the few files it needs, one writable
 * scratch dir, a clean environment, and an unprivileged uid: when Basecamp runs as root, setpriv
 * drops to SANDBOX_UID before bwrap, so the sandbox never holds the host's root even mapped. It
 * runs BULK_NICE steps below the server's CPU priority: on a busy machine the server answers
 * requests first and a participant's run takes the CPU that is left.
 */
export function sandboxCommand(spec: SandboxSpec): Command {
  const bwrap = [
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--clearenv",
    "--ro-bind", "/usr", "/usr",
    "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/bin", "/bin",
    "--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
    "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache",
    "--proc", "/proc",
    "--dev", "/dev",
    ...spec.python.binds.flatMap((dir) => ["--ro-bind", dir, dir]),
    "--bind", spec.scratch, SANDBOX_SCRATCH,
    ...Object.entries(spec.files).flatMap(([inside, host]) => ["--ro-bind", host, inside]),
    "--remount-ro", "/", // the root bwrap builds (/participant, /etc) takes no files: only the scratch dir does
    "--chdir", SANDBOX_SCRATCH,
    ...Object.entries({ ...WORKER_ENV, PATH: "/usr/bin:/bin", HOME: SANDBOX_SCRATCH, TMPDIR: SANDBOX_SCRATCH, LANG: "C.UTF-8" }).flatMap(([k, v]) => ["--setenv", k, v]),
    spec.python.path,
    ...spec.args,
  ];
  const asRoot = process.getuid?.() === 0;
  const drop = [`--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_UID}`, "--clear-groups", "--no-new-privs", "bwrap"];
  return {
    file: "nice",
    args: ["-n", String(BULK_NICE), ...(asRoot ? ["setpriv", ...drop, ...bwrap] : ["bwrap", ...bwrap])],
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    cwd: "/",
  };
}
