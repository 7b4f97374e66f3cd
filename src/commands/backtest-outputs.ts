import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { wallTime } from "../domain/realtime-clock.js";

/**
 * Checks, before any work, that `path` can be written: its directory exists and is writable, and
 * the path itself, if it exists, is a writable file. The error is one line naming the flag and
 * the path.
 */
export function checkOutputPath(flag: string, path: string): void {
  const dir = dirname(resolve(path));
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new Error(`${flag} ${path}: no directory ${dir}`);
  }
  if (!isDir) throw new Error(`${flag} ${path}: ${dir} is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`${flag} ${path}: the directory ${dir} is not writable`);
  }
  let existing;
  try {
    existing = statSync(path);
  } catch {
    return; // a new file in a writable directory
  }
  if (existing.isDirectory()) throw new Error(`${flag} ${path}: is a directory`);
  try {
    accessSync(path, constants.W_OK);
  } catch {
    throw new Error(`${flag} ${path}: the file is not writable`);
  }
}

/**
 * A fresh directory for one backtest's logs, `.basecamp/logs/backtest-<UTC time>` under `cwd`
 * (`-2`, `-3`… when that name is taken): each Python strategy's stdout and stderr go to
 * `<agent>.log` in it.
 */
export function makeLogDir(cwd = process.cwd()): string {
  const parent = join(cwd, ".basecamp", "logs");
  mkdirSync(parent, { recursive: true });
  const stamp = new Date(wallTime()).toISOString().slice(0, 19).replace(/:/g, "-");
  for (let k = 1; ; k++) {
    const dir = join(parent, `backtest-${stamp}${k === 1 ? "" : `-${k}`}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`cannot make the log directory ${dir}: ${(e as Error).message}`);
    }
  }
}

/** A path as the user finds it: relative to the working directory when inside it. */
export function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") ? path : rel;
}
