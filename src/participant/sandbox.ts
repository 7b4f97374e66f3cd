import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { BULK_NICE } from "../domain/thread-priority.js";
import { openSandboxGroup, wholeRlimits, type SandboxGroup } from "./sandbox-group.js";
import type { Command } from "./worker-process.js";

/** The unprivileged user a sandbox runs as when Basecamp itself runs as root ("nobody"). */
export const SANDBOX_UID = 65534;

/** A sandbox's bounds: memory, processes and CPUs for the sandbox as a whole; CPU time and file size per process; its scratch's size. */
export interface SandboxLimits {
  /** Bytes for all of the sandbox's processes together (sandbox-group.ts says how this machine enforces it). */
  memory_bytes: number;
  cpu_seconds: number;
  /** Processes and threads, all of the sandbox's together. */
  processes: number;
  /** CPUs' worth of time per wall second, for the whole sandbox (where a cgroup bounds it). */
  cpus: number;
  file_size_bytes: number;
  /** The size of the sandbox's scratch (a tmpfs where this machine can mount one: work-dir.ts). */
  scratch_bytes: number;
}

/** The default whole-sandbox memory: a fit on the real event's train split (468k rows × 178 int8 features, LightGBM) fits in it. */
const DEFAULT_MEMORY_BYTES = 8 * 1024 ** 3;

/**
 * `BASECAMP_SANDBOX_MEMORY` (bytes, or a number with a K, M or G suffix) or the default: the
 * memory a sandbox has as a whole. Throws naming the value when it is not one.
 */
export function sandboxMemory(setting = process.env.BASECAMP_SANDBOX_MEMORY): number {
  if (setting === undefined || setting === "") return DEFAULT_MEMORY_BYTES;
  const m = /^(\d+(?:\.\d+)?)([KMG]?)i?B?$/i.exec(setting.trim());
  const scale = { "": 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[(m?.[2] ?? "").toUpperCase()];
  const bytes = m && scale ? Math.floor(Number(m[1]) * scale) : NaN;
  if (!(bytes >= 64 * 1024 ** 2)) throw new Error(`BASECAMP_SANDBOX_MEMORY: expected bytes (at least 64M), e.g. 8G, got '${setting}'`);
  return bytes;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memory_bytes: sandboxMemory(),
  cpu_seconds: 3600,
  processes: 64,
  cpus: 1,
  file_size_bytes: 1024 ** 3,
  scratch_bytes: 2 * 1024 ** 3,
};

/** The rlimits a sandboxed script sets on itself (LIMITS_JSON of worker.py, train_job.py, machine_command.py) for `limits`. */
export function insideLimits(limits: SandboxLimits): Record<string, number> {
  return { cpu_seconds: limits.cpu_seconds, file_size_bytes: limits.file_size_bytes, ...wholeRlimits(limits) };
}

/**
 * How much of the machine a participant's process takes, a setting of its launch:
 * - "shared" (served deployments, hosted compute: many agents' code beside the server): one
 *   BLAS/OpenMP thread, BULK_NICE steps below the server, a CPU quota of the limits' `cpus`, so one
 *   agent never slows the others;
 * - "whole" (a local command running the user's own files, `backtest`): BLAS and OpenMP at their
 *   own defaults, not niced, a CPU quota of every core: what the user's own script would get.
 */
export type CpuShare = "shared" | "whole";

/** Fixed hashing, no bytecode written: every worker's. */
const PROCESS_ENV = { PYTHONHASHSEED: "0", PYTHONDONTWRITEBYTECODE: "1" };

/** The variables a "shared" sandboxed (and trusted) worker runs with: fixed hashing, one BLAS/OpenMP thread. */
export const WORKER_ENV = { ...PROCESS_ENV, OPENBLAS_NUM_THREADS: "1", OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1" };

/** The variables a worker of `share` runs with: a "whole" one leaves BLAS and OpenMP their own thread counts. */
export function workerEnv(share: CpuShare): Record<string, string> {
  return share === "shared" ? WORKER_ENV : PROCESS_ENV;
}

/** The limits a sandbox of `share` runs under: a "whole" one's CPU quota is every core. */
export function shareLimits(limits: SandboxLimits, share: CpuShare): SandboxLimits {
  return share === "shared" ? limits : { ...limits, cpus: availableParallelism() };
}

/** Where the sandbox's only writable directory (the worker's scratch dir) appears inside it. */
export const SANDBOX_SCRATCH = "/tmp";

/** The launcher that seals a sandbox before it starts (closes inherited descriptors, joins its cgroups). */
const SEAL = fileURLToPath(new URL("./python/seal.py", import.meta.url));

/** A host directory bound read-only into the sandbox at `inside` (its own path, as the interpreter knows it). */
export interface Bind {
  host: string;
  inside: string;
}

export interface SandboxSpec {
  python: { path: string; binds: Bind[] };
  /** The worker's host directory bound writable at SANDBOX_SCRATCH. */
  scratch: string;
  /** Host files bound read-only into the sandbox, by their path inside it. */
  files: Record<string, string>;
  /** The interpreter's arguments, with paths as the sandbox sees them. */
  args: string[];
  /** The descriptors the sandbox is given: 0 .. keep-1 (3 = stdio only); every other one is closed before it starts. */
  keep: number;
  /** Its cgroups (null where rlimits bound it): the launcher joins them before it starts. */
  group: SandboxGroup | null;
  /** How much of the machine it takes (default "shared"). */
  share?: CpuShare;
}

/**
 * The command for a sandboxed process. The launcher (python/seal.py, run by the same interpreter
 * on the host) joins the sandbox's cgroups and closes every descriptor but the first `keep`, then
 * execs bubblewrap: every namespace unshared (no network, its own
 * PIDs so nothing it starts outlives it), a read-only /usr and the few files it needs, one writable
 * scratch dir, a clean environment, and an unprivileged uid: when Basecamp runs as root, setpriv
 * drops to SANDBOX_UID before bwrap, so the sandbox never holds the host's root even mapped. It
 * runs BULK_NICE steps below the server's CPU priority when its share is "shared" (CpuShare);
 * across the machine it weighs as one session (its own session, or its cgroup with a quota of
 * `cpus`: sandbox-group.ts).
 */
export function sandboxCommand(spec: SandboxSpec): Command {
  const share = spec.share ?? "shared";
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
    // The scratch dir before the interpreter's binds: an interpreter living under /tmp on the host
    // (a venv in a temporary checkout) is then bound on top of it, not hidden by it.
    "--bind", spec.scratch, SANDBOX_SCRATCH,
    ...spec.python.binds.flatMap((b) => ["--ro-bind", b.host, b.inside]),
    ...Object.entries(spec.files).flatMap(([inside, host]) => ["--ro-bind", host, inside]),
    "--remount-ro", "/", // the root bwrap builds (/participant, /etc) takes no files: only the scratch dir does
    "--chdir", SANDBOX_SCRATCH,
    ...Object.entries({ ...workerEnv(share), PATH: "/usr/bin:/bin", HOME: SANDBOX_SCRATCH, TMPDIR: SANDBOX_SCRATCH, LANG: "C.UTF-8" }).flatMap(([k, v]) => ["--setenv", k, v]),
    spec.python.path,
    ...spec.args,
  ];
  const asRoot = process.getuid?.() === 0;
  const drop = [`--reuid=${SANDBOX_UID}`, `--regid=${SANDBOX_UID}`, "--clear-groups", "--no-new-privs", "bwrap"];
  const seal = ["-I", "-S", "-B", SEAL, String(spec.keep), (spec.group?.procs ?? []).join(":")];
  return {
    file: spec.python.path,
    args: [...seal, ...(share === "shared" ? ["nice", "-n", String(BULK_NICE)] : []), ...(asRoot ? ["setpriv", ...drop, ...bwrap] : ["bwrap", ...bwrap])],
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    cwd: "/",
  };
}

/** A sandbox about to start: its command, and its cgroups' verdict and release (no-ops where rlimits bound it). */
export interface SandboxLaunch {
  command: Command;
  /** Why its bounds stopped it (the memory limit), or null. */
  stoppedBy(): string | null;
  /** Kills what is left in its cgroups and removes them: once it has ended. */
  release(): Promise<void>;
}

/** The sandbox's cgroups made and its command built; a failure names what could not be set up (the sandbox fails closed). */
export function launchSandbox(spec: Omit<SandboxSpec, "group">, limits: SandboxLimits): { ok: true; launch: SandboxLaunch } | { ok: false; error: string } {
  let group: SandboxGroup | null;
  try {
    group = openSandboxGroup(shareLimits(limits, spec.share ?? "shared"));
  } catch (e) {
    return { ok: false, error: `the sandbox's cgroup cannot be set up: ${(e as Error).message}` };
  }
  return {
    ok: true,
    launch: {
      command: sandboxCommand({ ...spec, group }),
      stoppedBy: () => group?.stoppedBy() ?? null,
      release: () => group?.release() ?? Promise.resolve(),
    },
  };
}
