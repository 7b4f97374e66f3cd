import { rmSync } from "node:fs";

interface Registry {
  /** Directories still on disk whose owner has not removed them: removed when the process exits. */
  left: Set<string>;
  /** What must happen before they are removed (a mount point cannot be removed until it is unmounted). */
  before: Set<() => void>;
  registered: boolean;
}

/**
 * The process's one registry, kept on globalThis: every copy of this module (tests that reload
 * modules load a new one each time) shares it, so the process has one set of exit hooks, not one
 * per copy.
 */
const REGISTRY = Symbol.for("basecamp.exit-cleanup");
const registry = ((globalThis as Record<symbol, Registry | undefined>)[REGISTRY] ??= { left: new Set(), before: new Set(), registered: false });
const { left, before } = registry;

/**
 * Marks a temporary directory to be removed when the process exits, in case its owner never
 * removes it (an uncaught error, a `process.exit`, SIGINT or SIGTERM). The hooks are registered
 * with the first directory, not when the module loads. A directory that cannot be removed then is
 * left for the next start (temp-roots.ts removes the directories of processes that are gone).
 */
export function removeAtExit(dir: string): void {
  if (!registry.registered) {
    process.once("exit", removeLeft);
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => endBy(signal));
    registry.registered = true;
  }
  left.add(dir);
}

/** The owner has removed `dir` (or is about to): the exit hook leaves it be. */
export function removedBeforeExit(dir: string): void {
  left.delete(dir);
}

/** Runs `hook` before the directories are removed at exit, on every path (the exit event and a signal with no handler). */
export function beforeRemovingAtExit(hook: () => void): void {
  before.add(hook);
}

/** Removes a directory marked by `removeAtExit` now. */
export function removeNow(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  left.delete(dir);
}

function removeLeft(): void {
  for (const hook of before) hook();
  for (const dir of left) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Left for the next start.
    }
  }
  left.clear();
}

/**
 * A signal the process has no other handler for would end it without the exit hook: remove the
 * directories, then die of the signal as the default would. A command that handles the signal
 * itself (serve, mcp) ends through `process.exit`, which runs the exit hook.
 */
function endBy(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 0) return;
  removeLeft();
  process.kill(process.pid, signal);
}
