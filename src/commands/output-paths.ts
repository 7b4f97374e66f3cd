/** Paths a command writes to or names: checked before the work, shown as the user finds them. */
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/**
 * Refuses, before any work, an output flag naming the file of another output given before it or of
 * one of the command's inputs (`--html grid.json`, the sweep file; `--html` and `--save-predictions`
 * one file): the command would write over it. Each is a `[name, path]`, a flag or what it is.
 */
export function checkOutputsApart(outputs: [string, string | undefined][], inputs: [string, string][]): void {
  const seen = [...inputs];
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    const other = seen.find(([, p]) => sameFile(p, path));
    if (other) throw new Error(`${flag} ${path}: is ${other[0]}${other[0].startsWith("--") ? "'s file too" : ""}`);
    seen.push([flag, path]);
  }
}

/** Whether two paths name one file, whichever way each is written (through symlinks where it exists). */
function sameFile(a: string, b: string): boolean {
  const canonical = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return canonical(a) === canonical(b);
}

/**
 * Checks, before any work, that `path` can be written: its directory exists and is writable, and
 * the path itself, if it exists, is a writable file. The error is one line naming the flag and
 * the path (the path alone when no flag named it: a default).
 */
export function checkOutputPath(flag: string | undefined, path: string): void {
  const named = flag === undefined ? path : `${flag} ${path}`;
  const dir = dirname(resolve(path));
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new Error(`${named}: no directory ${dir}`);
  }
  if (!isDir) throw new Error(`${named}: ${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`${named}: the directory ${dir} is not writable`);
  }
  let existing;
  try {
    existing = statSync(path);
  } catch {
    return; // a new file in a writable directory
  }
  if (existing.isDirectory()) throw new Error(`${named}: is a directory`);
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new Error(`${named}: the file is not writable`);
  }
}

/** A path as the user finds it: relative to the working directory when inside it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") ? path : rel;
}
