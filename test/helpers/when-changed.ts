import { watch } from "node:fs";

/**
 * Resolves once `check` holds: looked at now and again each time the file or directory at `path`
 * changes (a write, an entry made or removed), so a test waits on the change itself rather than
 * polling with a deadline a busy machine can outlast. One that never comes fails at the test's timeout.
 */
export function whenChanged(path: string, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(path, () => {
      if (!check()) return;
      watcher.close();
      resolve();
    });
    if (check()) {
      watcher.close();
      resolve();
    }
  });
}
