import { chown, mkdir, mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { processTempDir } from "../data/temp-roots.js";
import { SANDBOX_UID } from "./sandbox.js";

/**
 * A worker's own host directory (`worker-*` in this process's `sandboxes` directory, which
 * temp-roots.ts removes at exit or, after a `kill -9`, at the next start): the files bound into its
 * sandbox, and `tmp/`, its scratch, the only place it writes (its TMPDIR, so Python's temporary
 * files never land in the host's tmpdir). Owned by the sandbox's user when Basecamp runs as root,
 * since bwrap reads the bound files after dropping to it. The caller removes it when the process ends.
 */
export async function makeWorkDir(): Promise<{ dir: string; scratch: string }> {
  const dir = await mkdtemp(join(processTempDir("sandboxes"), "worker-"));
  const scratch = join(dir, "tmp");
  await mkdir(scratch);
  if (process.getuid?.() === 0) {
    await chown(dir, SANDBOX_UID, SANDBOX_UID);
    await chown(scratch, SANDBOX_UID, SANDBOX_UID);
  }
  return { dir, scratch };
}
