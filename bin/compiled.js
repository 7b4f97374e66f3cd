// Whether a checkout's compiled build (dist/, made by `npm run build`, which `npm ci` runs) was built
// from its sources as they are now. The build stamps dist/ with the time it began; the build is
// current when no file or directory under the compiled trees is newer (an edit, a new, renamed or
// deleted file all touch one), so an edit made after the build runs from the sources, never stale.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The compiled trees (tsconfig.build.json's include), what the build copies or reads, and the step that bundles them. */
const SOURCES = ["src", "sim", "tsconfig.json", "tsconfig.build.json", "bin/bundle-cli.js"];
export const STAMP = "dist/.build-stamp";

/** True when `root`/dist was built from the sources now under `root`. */
export function buildIsCurrent(root) {
  let built;
  try {
    built = statSync(join(root, STAMP)).mtimeMs;
  } catch {
    return false;
  }
  // An entry that vanishes while it is looked at is a change too.
  const newer = (path) => {
    try {
      const stat = statSync(path);
      if (stat.mtimeMs > built) return true;
      return stat.isDirectory() && readdirSync(path).some((name) => newer(join(path, name)));
    } catch {
      return true;
    }
  };
  return !SOURCES.some((name) => newer(join(root, name)));
}
