import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { wallTime } from "../domain/realtime-clock.js";
import { shownPath } from "./output-paths.js";

/**
 * A fresh directory for one command's strategy logs, `.basecamp/logs/<command>-<UTC time>` under
 * `cwd` (`-2`, `-3`… when that name is taken): each Python or model-file strategy's stdout and
 * stderr go to `<agent>.log` in it.
 */
export function makeLogDir(command: "backtest" | "run" | "serve", cwd = process.cwd()): string {
  const parent = join(cwd, ".basecamp", "logs");
  mkdirSync(parent, { recursive: true });
  const stamp = new Date(wallTime()).toISOString().slice(0, 19).replace(/:/g, "-");
  for (let k = 1; ; k++) {
    const dir = join(parent, `${command}-${stamp}${k === 1 ? "" : `-${k}`}`);
    try {
      mkdirSync(dir);
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new Error(`cannot make the log directory ${dir}: ${(e as Error).message}`);
    }
  }
}

/** The line that tells the user where the logs go. */
export function logsLine(dir: string): string {
  return `logs: each Python strategy's stdout and stderr go to ${shownPath(dir)}/<agent>.log`;
}
