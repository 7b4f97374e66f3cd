import { readFileSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit, removedBeforeExit } from "../data/exit-cleanup.js";
import { mountAt, unmount, detach } from "./host-mount.js";
import { processAlive } from "./sandbox-group.js";
import { SANDBOX_UID } from "./sandbox.js";

/**
 * The root under which every sandbox's directory lives, apart from the server's own store and
 * spools: `BASECAMP_SANDBOX_ROOT`, else `basecamp-sandboxes` in the tmpdir.
 */
export function sandboxRoot(): string {
  return process.env.BASECAMP_SANDBOX_ROOT ?? join(tmpdir(), "basecamp-sandboxes");
}

/** How a sandbox's scratch is bounded on this machine, decided by the first work dir made. */
export type ScratchBound = { kind: "tmpfs" } | { kind: "file-size"; why: string };
let bound: ScratchBound | null = null;

/** Null until the first work dir is made; then how scratch is bounded here. */
export function scratchBound(): ScratchBound | null {
  return bound;
}

/**
 * A sandbox's own host directory under sandboxRoot(): the files bound into it, and `tmp/`, its
 * scratch, the only place it writes (its TMPDIR). As root the directory is a tmpfs of `bytes`, so
 * a participant filling it gets "No space left on device" and the disk the server's store lives
 * on never fills; otherwise (a user without mounts) only RLIMIT_FSIZE bounds each file (see
 * scratchBound()). Owned by the sandbox's user when Basecamp runs as root, since bwrap reads the
 * bound files after dropping to it. The caller removes it with removeWorkDir once the process ends.
 */
export async function makeWorkDir(bytes: number): Promise<{ dir: string; scratch: string }> {
  const root = await ownRoot();
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(join(root, `worker-${process.pid}-`));
  removeAtExit(dir);
  if (!asRoot) bound ??= { kind: "file-size", why: "not running as root: no tmpfs can be mounted" };
  else if (bound?.kind !== "file-size") {
    const failed = await mountAt(["-t", "tmpfs", "-o", `size=${bytes},mode=0700,uid=${SANDBOX_UID},gid=${SANDBOX_UID},nosuid,nodev`, "tmpfs"], dir);
    bound = failed === null ? { kind: "tmpfs" } : { kind: "file-size", why: `no tmpfs can be mounted (${failed})` };
  }
  const scratch = join(dir, "tmp");
  await mkdir(scratch);
  if (asRoot) {
    await chown(dir, SANDBOX_UID, SANDBOX_UID);
    await chown(scratch, SANDBOX_UID, SANDBOX_UID);
  }
  return { dir, scratch };
}

/** Removes a work dir made by makeWorkDir, its tmpfs included. */
export async function removeWorkDir(dir: string): Promise<void> {
  await unmount(dir);
  await rm(dir, { recursive: true, force: true });
  removedBeforeExit(dir);
}

let swept: Promise<string> | null = null;

/**
 * sandboxRoot(), made (passable by the sandbox's user) and, once per process, rid of what a
 * process that is gone left there (killed before it could unmount and remove its directories):
 * every name carries its maker's pid.
 */
export function ownRoot(): Promise<string> {
  swept ??= (async () => {
    const root = sandboxRoot();
    await mkdir(root, { recursive: true });
    if (process.getuid?.() === 0) await chmod(root, 0o711); // the sandbox's user passes through to its own dir
    const gone = (name: string) => {
      const pid = Number(/^(?:worker|python)-(\d+)-/.exec(name)?.[1]);
      return Number.isInteger(pid) && pid !== process.pid && !processAlive(pid);
    };
    // Which makers are gone is settled before the mounts are read: a maker that dies between the
    // two (a test, or a user, killing a sweep's worker) would otherwise leave a mount point this
    // tries to remove as a plain directory (EBUSY). A dir that still cannot go is left for a later
    // process's sweep: it is no reason to fail this one.
    const stale = (await readdir(root)).filter(gone).map((name) => join(root, name));
    const mounted = new Set(mountsUnder(root));
    for (const at of stale) {
      try {
        if (mounted.has(at)) await detach(at);
        await rm(at, { recursive: true, force: true });
      } catch (e) {
        // Still busy (another process sweeping it at the same moment): the next sweep removes it.
        if ((e as NodeJS.ErrnoException).code !== "EBUSY") throw e;
      }
    }
    return root;
  })();
  return swept;
}

/** The mount points directly in `root` (from /proc/self/mounts; none where it cannot be read). */
function mountsUnder(root: string): string[] {
  try {
    return readFileSync("/proc/self/mounts", "utf8")
      .split("\n")
      .map((line) => line.split(" ")[1] ?? "")
      .filter((at) => at.startsWith(root + "/") && !at.slice(root.length + 1).includes("/"));
  } catch {
    return [];
  }
}
