import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";

/** The bounds of one sandbox as a whole, whatever it starts inside. */
export interface WholeBounds {
  memory_bytes: number;
  processes: number;
  /** CPUs' worth of time per wall second (a CFS quota). */
  cpus: number;
}

/**
 * How this machine bounds a sandbox as a whole, decided once per process: a cgroup (v1) per
 * sandbox where the memory and pids controllers delegate one to this process (the cpu controller
 * too where present), else per-process rlimits whose product cannot exceed the whole's memory:
 * RLIMIT_NPROC × RLIMIT_AS ≤ memory_bytes.
 */
export type BoundsMode = { kind: "cgroup"; roots: { memory: string; pids: string; cpu: string | null } } | { kind: "rlimits"; why: string };

/** Processes a sandbox may hold where no cgroup bounds it: each gets memory_bytes / this of address space. */
export const RLIMIT_PROCESSES = 4;
/** The CFS period the cpu quota is a share of (the kernel's default). */
const CPU_PERIOD_US = 100_000;

let mode: BoundsMode | null = null;
let made = 0;

/** The mode this process bounds sandboxes in (probed on first use: a test cgroup made and removed). */
export function boundsMode(): BoundsMode {
  mode ??= probe();
  return mode;
}

/**
 * The rlimits a sandboxed process sets on itself, besides its own cpu_seconds and file_size_bytes,
 * for `whole` in `mode`: none under a cgroup; else at most RLIMIT_PROCESSES processes, each with
 * its share of the memory, so that together they cannot pass it.
 */
export function wholeRlimits(whole: WholeBounds, mode: BoundsMode = boundsMode()): { memory_bytes?: number; processes?: number } {
  if (mode.kind === "cgroup") return {};
  const processes = Math.min(whole.processes, RLIMIT_PROCESSES);
  return { memory_bytes: Math.floor(whole.memory_bytes / processes), processes };
}

/** One sandbox's cgroups: made before it starts, joined by its launcher (seal.py), removed after it. */
export interface SandboxGroup {
  /** The `cgroup.procs` files the launcher writes its pid to. */
  procs: string[];
  /** Why the sandbox was stopped by its bounds (the memory limit), or null. */
  stoppedBy(): string | null;
  /** Kills whatever is still in it, then removes it. */
  release(): Promise<void>;
}

/** A cgroup per controller for one sandbox (null where this machine bounds by rlimits). Throws naming the file it could not write. */
export function openSandboxGroup(whole: WholeBounds): SandboxGroup | null {
  const found = boundsMode();
  if (found.kind !== "cgroup") return null;
  const name = `basecamp-${process.pid}-${++made}`;
  const dirs = { memory: join(found.roots.memory, name), pids: join(found.roots.pids, name), cpu: found.roots.cpu ? join(found.roots.cpu, name) : null };
  const all = [dirs.memory, dirs.pids, ...(dirs.cpu ? [dirs.cpu] : [])];
  try {
    for (const dir of all) mkdirSync(dir);
    writeLimits(dirs, whole);
  } catch (e) {
    for (const dir of all) removeNow(dir);
    throw e;
  }
  const verdict = () => (oomKills(dirs.memory) > 0 ? `stopped at the sandbox's memory limit (${gib(whole.memory_bytes)} for the whole sandbox, all its processes together)` : null);
  let kept: string | null | undefined; // the verdict read before release removes the group
  return {
    procs: all.map((dir) => join(dir, "cgroup.procs")),
    stoppedBy: () => (kept === undefined ? verdict() : kept),
    release: () => {
      kept ??= verdict();
      return release(all);
    },
  };
}

function writeLimits(dirs: { memory: string; pids: string; cpu: string | null }, whole: WholeBounds): void {
  writeFileSync(join(dirs.memory, "memory.limit_in_bytes"), String(whole.memory_bytes));
  // With swap accounting, memory + swap gets the same bound: the sandbox cannot spill into swap.
  const memsw = join(dirs.memory, "memory.memsw.limit_in_bytes");
  if (existsSync(memsw)) writeFileSync(memsw, String(whole.memory_bytes));
  writeFileSync(join(dirs.pids, "pids.max"), String(whole.processes));
  if (dirs.cpu) {
    writeFileSync(join(dirs.cpu, "cpu.cfs_period_us"), String(CPU_PERIOD_US));
    // Only a quota: the weight stays the default 1024, what a session's autogroup has (a sandbox was
    // one before it had a cgroup: bwrap --new-session). A lower weight starved it behind every other
    // session on a busy machine (a sandbox's start took 4× as long at 256).
    writeFileSync(join(dirs.cpu, "cpu.cfs_quota_us"), String(Math.round(whole.cpus * CPU_PERIOD_US)));
  }
}

function oomKills(memory: string): number {
  try {
    const line = readFileSync(join(memory, "memory.oom_control"), "utf8").split("\n").find((l) => l.startsWith("oom_kill "));
    return line ? Number(line.split(" ")[1]) : 0;
  } catch {
    return 0;
  }
}

/** How many times a cgroup still holding dying processes is tried again, 10 ms apart. */
const RELEASE_TRIES = 200;

async function release(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    for (let i = 0; i < RELEASE_TRIES; i++) {
      for (const pid of pidsIn(dir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      if (removeNow(dir)) break;
      await sleep(10);
    }
  }
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function removeNow(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** This process's directory in a v1 controller's hierarchy, from /proc/self/cgroup. */
function ownRoot(controller: string): string | null {
  let text: string;
  try {
    text = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    const [, names, path] = line.split(":");
    if (names?.split(",").includes(controller)) {
      const root = join("/sys/fs/cgroup", controller, path ?? "/");
      return existsSync(root) ? root : null;
    }
  }
  return null;
}

function probe(): BoundsMode {
  if (process.platform !== "linux") return { kind: "rlimits", why: "not Linux" };
  const memory = ownRoot("memory");
  const pids = ownRoot("pids");
  if (!memory || !pids) return { kind: "rlimits", why: "no cgroup v1 memory and pids controllers" };
  const cpu = ownRoot("cpu");
  const name = `basecamp-${process.pid}-probe`;
  const tried = (root: string, file: string, value: string): boolean => {
    const dir = join(root, name);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, file), value);
      return true;
    } catch {
      return false;
    } finally {
      removeNow(dir);
    }
  };
  if (!tried(memory, "memory.limit_in_bytes", String(1024 ** 3)) || !tried(pids, "pids.max", "64")) {
    return { kind: "rlimits", why: "the cgroup controllers do not delegate a group to this process" };
  }
  const found = { memory, pids, cpu: cpu && tried(cpu, "cpu.cfs_quota_us", String(CPU_PERIOD_US)) ? cpu : null };
  for (const root of [found.memory, found.pids, found.cpu]) if (root) sweep(root);
  return { kind: "cgroup", roots: found };
}

/** Removes the groups a process that is gone left in `root` (killed before it could remove them), killing what is still in them. */
function sweep(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = Number(/^basecamp-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || processAlive(pid)) continue;
    const dir = join(root, name);
    for (const task of pidsIn(dir)) {
      try {
        process.kill(task, "SIGKILL");
      } catch {
        // already gone
      }
    }
    removeNow(dir);
  }
}

/** Whether a process with this pid exists (its owner's leftovers are left alone while it does). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function gib(bytes: number): string {
  const g = bytes / 1024 ** 3;
  return Number.isInteger(g) ? `${g} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
