import { execFile, spawnSync } from "node:child_process";
import { beforeRemovingAtExit } from "../data/exit-cleanup.js";

/** Mounts this process made and has not unmounted yet: unmounted when it exits. */
const mounted = new Set<string>();
let registered = false;

/**
 * Runs `mount ARGS… AT` (as root: a sandbox's bounded scratch, a read-only view of an
 * interpreter). Null once mounted, else why not. A mount left at exit is unmounted then.
 */
export function mountAt(args: string[], at: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("mount", [...args, at], { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) return resolve(stderr.trim().split("\n").pop() || error.message);
      if (!registered) {
        // Before exit-cleanup's removal of a directory, which fails while it is a mount point: first
        // of the exit hooks, and first thing when a signal with no handler ends the process.
        process.prependOnceListener("exit", unmountAll);
        beforeRemovingAtExit(unmountAll);
        registered = true;
      }
      mounted.add(at);
      resolve(null);
    });
  });
}

function unmountAll(): void {
  if (mounted.size > 0) spawnSync("umount", ["-l", ...mounted]);
  mounted.clear();
}

/** Unmounts what mountAt mounted at `at` (lazily: a sandbox still starting keeps its own view); a no-op for anything else. */
export function unmount(at: string): Promise<void> {
  if (!mounted.has(at)) return Promise.resolve();
  mounted.delete(at);
  return detach(at);
}

/** Unmounts `at` lazily (also a mount a process that is gone left: work-dir.ts' sweep). */
export function detach(at: string): Promise<void> {
  return new Promise((resolve) => execFile("umount", ["-l", at], { timeout: 30_000 }, () => resolve()));
}
