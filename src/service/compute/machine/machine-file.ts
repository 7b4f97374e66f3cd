import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, join, normalize, sep } from "node:path";
import { refuse } from "../../../domain/errors.js";

/** The largest file a read answers (413 above it). */
const MAX_FILE_BYTES = 1024 ** 2;
/** The longest path a read takes. */
const MAX_PATH_CHARS = 1024;

/**
 * A file from a machine's workspace, size-bounded and confined to it: the path is relative, never
 * climbs out, passes through no link leading outside (the resolved directory must lie inside), and
 * names a plain file, opened without following a final link.
 */
export async function readWorkspaceFile(scratch: string, path: string, machineId: string): Promise<{ path: string; size: number; bytes: Uint8Array }> {
  const invalid = (why: string) => refuse("machine_file_path_invalid", { path: path.slice(0, 200), why });
  if (path.length === 0 || path.length > MAX_PATH_CHARS) throw invalid(`1 to ${MAX_PATH_CHARS} characters`);
  if (path.includes("\0")) throw invalid("no NUL characters");
  if (isAbsolute(path)) throw invalid("not absolute");
  const clean = normalize(path);
  if (clean === "." || clean === ".." || clean.startsWith(`..${sep}`)) throw invalid("it may not leave the workspace");
  const notFound = () => refuse("machine_file_not_found", { path: clean, machine_id: machineId });
  const root = await realpath(scratch);
  const full = join(root, clean);
  const dir = await realpath(join(full, "..")).catch(() => null);
  if (dir === null) throw notFound();
  if (dir !== root && !dir.startsWith(root + sep)) throw invalid("it may not leave the workspace");
  let file;
  try {
    file = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw invalid("a symbolic link is not read");
    if (code === "ENOENT" || code === "ENOTDIR") throw notFound();
    throw e;
  }
  try {
    const stat = await file.stat();
    if (!stat.isFile()) throw invalid("not a plain file");
    if (stat.size > MAX_FILE_BYTES) throw refuse("machine_file_too_large", { path: clean, size: stat.size, limit: MAX_FILE_BYTES });
    const bytes = Buffer.alloc(stat.size);
    const { bytesRead } = await file.read(bytes, 0, stat.size, 0);
    return { path: clean, size: bytesRead, bytes: new Uint8Array(bytes.subarray(0, bytesRead)) };
  } finally {
    await file.close();
  }
}
