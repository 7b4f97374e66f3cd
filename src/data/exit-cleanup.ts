import { rmSync } from "node:fs";

/** Directories still on disk whose owner has not removed them: removed when the process exits. */
const left = new Set<string>();
let registered = false;

/**
 * Marks a temporary directory to be removed when the process exits, in case its owner never
 * removes it (an uncaught error, a `process.exit`). The exit hook is registered with the first
 * directory, not when the module loads.
 */
export function removeAtExit(dir: string): void {
  if (!registered) {
    process.once("exit", () => {
      for (const d of left) rmSync(d, { recursive: true, force: true });
    });
    registered = true;
  }
  left.add(dir);
}

/** The owner has removed `dir` (or is about to): the exit hook leaves it be. */
export function removedBeforeExit(dir: string): void {
  left.delete(dir);
}

/** Removes a directory marked by `removeAtExit` now. */
export function removeNow(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  left.delete(dir);
}
