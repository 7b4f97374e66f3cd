import { spawn } from "node:child_process";
import { constants } from "node:os";

/** The last stderr bytes kept for a crash's reason: a chatty script cannot exhaust memory. */
const STDERR_TAIL = 64 * 1024;

/** A process to run: what, with which arguments, environment and working directory. */
export interface ProcessCommand {
  file: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
}

/**
 * Runs a Python script to its end. Null when it exited 0 (it reports through its own files), else
 * why it did not, naming `what` ran. The script runs with a fixed hash seed (see runToEnd).
 */
export function runPythonScript(python: string, args: string[], timeoutSeconds: number, what: string): Promise<string | null> {
  return runToEnd({ file: python, args, env: { ...process.env, PYTHONHASHSEED: "0" } }, timeoutSeconds, what);
}

/**
 * Runs a command to its end: null when it exited 0, else why not, naming `what` ran. It runs in a
 * process group of its own; the group is killed at the timeout and once the command is done, so
 * processes it started never outlive it. Its stdout is discarded; only a bounded tail of stderr is kept.
 */
export function runToEnd(command: ProcessCommand, timeoutSeconds: number, what: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(command.file, command.args, {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: command.env,
      cwd: command.cwd,
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutSeconds * 1000);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve(`the ${what} run could not start: ${e.message}`);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      killGroup();
      if (timedOut) return resolve(`${what} did not finish within ${timeoutSeconds} s and was stopped`);
      if (code === 0) return resolve(null);
      const last = stderr.trim().split("\n").pop();
      resolve(`the ${what} run crashed: ${last || exitText(code, signal)}`);
    });
  });
}

/** How a process ended: a signal by name, also when bwrap reports its child's as exit 128 + n. */
export function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return `killed by ${signal}`;
  const name = code !== null && code > 128 ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return name ? `killed by ${name} (exit ${code})` : `exit ${code}`;
}

/**
 * A reason fit for the event log, which must not vary between runs: the run's temporary directory
 * and object addresses (`<object at 0x7f…>`) are taken out.
 */
export function logSafe(reason: string, dir: string): string {
  return reason.replaceAll(dir, "<run dir>").replace(/ at 0x[0-9a-fA-F]+/g, "");
}
