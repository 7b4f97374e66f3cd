import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit } from "./exit-cleanup.js";

/**
 * The kinds of temporary directory Basecamp makes, each under a root of its own in the OS temp
 * dir, with the mode of the root and of each process's directory in it, all private. (Sandboxes'
 * directories have a root of their own, src/participant/work-dir.ts, whose sweep also unmounts.)
 */
const KINDS = {
  /** Upload spools: request file parts kept on disk (src/http/file-spool.ts). */
  uploads: 0o700,
  /** A stdio MCP session's downloads (src/mcp/downloads.ts). */
  mcp: 0o700,
  /** A served deployment's store when it is given no --db (src/store/scratch-store.ts). */
  store: 0o700,
  /** The ridge pickler's files (src/data/ridge-pickle.ts). */
  ridge: 0o700,
} as const;

export type TempKind = keyof typeof KINDS;

/** This process's directory of each kind, once made. */
const own = new Map<TempKind, string>();

/** The root of `kind`: `basecamp-<kind>-<uid>` in the OS temp dir, one per user so no user's root is another's to make. */
export function tempRoot(kind: TempKind): string {
  return join(tmpdir(), `basecamp-${kind}-${process.getuid?.() ?? "user"}`);
}

/**
 * This process's directory of `kind`, `<root>/<pid>`, where it makes its temporary directories
 * of that kind (mkdtemp inside). Made on first use, when the leftovers of the processes that are
 * gone are removed from the root too; removed when this process exits (exit-cleanup.ts, also on
 * SIGINT/SIGTERM). What a `kill -9` leaves is removed by the next process to use the root.
 */
export function processTempDir(kind: TempKind): string {
  const known = own.get(kind);
  if (known !== undefined) return known;
  const root = ownedRoot(kind);
  removeLeftovers(kind);
  const dir = join(root, String(process.pid));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, KINDS[kind]);
  removeAtExit(dir);
  own.set(kind, dir);
  return dir;
}

/**
 * Removes, under every kind's root, the directories of processes that are gone (their pid is no
 * longer alive), and answers what it removed. A live process's directory is never touched; one
 * that cannot be removed (another user's) is left. A pid reused by a new process keeps the old
 * directory until that process is gone too.
 */
export function removeLeftovers(...kinds: TempKind[]): string[] {
  const removed: string[] = [];
  for (const kind of kinds.length > 0 ? kinds : (Object.keys(KINDS) as TempKind[])) {
    const root = tempRoot(kind);
    let names: string[];
    try {
      names = readdirSync(root);
    } catch {
      continue; // no root yet
    }
    for (const name of names) {
      if (!/^[1-9]\d*$/.test(name) || Number(name) === process.pid || alive(Number(name))) continue;
      try {
        rmSync(join(root, name), { recursive: true, force: true });
        removed.push(join(root, name));
      } catch {
        // Another user's, or being removed by another new process at the same moment.
      }
    }
  }
  return removed;
}

/** `kind`'s root, made if absent; refused unless it is a real directory of this user (not a symlink another user planted). */
function ownedRoot(kind: TempKind): string {
  const root = tempRoot(kind);
  mkdirSync(root, { recursive: true, mode: KINDS[kind] });
  const found = lstatSync(root);
  const uid = process.getuid?.();
  if (!found.isDirectory() || (uid !== undefined && found.uid !== uid)) {
    throw new Error(`${root} is not a directory of this user: remove it, or set TMPDIR elsewhere`);
  }
  chmodSync(root, KINDS[kind]);
  return root;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}
