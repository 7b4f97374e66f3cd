import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
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
 * How a command in its own process group ended: it could not start, passed its time bound, was
 * stopped by its caller's signal, or closed.
 */
export type GroupEnd =
  | { kind: "error"; message: string }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "closed"; code: number | null; signal: NodeJS.Signals | null };

/**
 * Spawns a command in a process group of its own and waits for its end. The group is killed at
 * the timeout, when `abort` fires (a signal already fired spawns nothing), and once the command is
 * done, so processes it started never outlive it. `watch` reads whichever pipes `stdio` opens.
 */
export function runInGroup(
  command: ProcessCommand,
  stdio: StdioOptions,
  timeoutSeconds: number,
  watch: (child: ChildProcess) => void,
  abort?: AbortSignal,
): Promise<GroupEnd> {
  return new Promise((resolve) => {
    if (abort?.aborted) return resolve({ kind: "aborted" });
    const child = spawn(command.file, command.args, { detached: true, stdio, env: command.env, cwd: command.cwd });
    watch(child);
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
    };
    let stopped: "timeout" | "aborted" | null = null;
    const stop = (why: "timeout" | "aborted") => {
      stopped ??= why;
      killGroup();
    };
    const timer = setTimeout(() => stop("timeout"), timeoutSeconds * 1000);
    const onAbort = () => stop("aborted");
    abort?.addEventListener("abort", onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      abort?.removeEventListener("abort", onAbort);
    };
    child.on("error", (e) => {
      settle();
      resolve({ kind: "error", message: e.message });
    });
    child.on("close", (code, signal) => {
      settle();
      killGroup();
      resolve(stopped ? { kind: stopped } : { kind: "closed", code, signal });
    });
  });
}

/**
 * Runs a command to its end (`runInGroup`): null when it exited 0, else why not, naming `what`
 * ran. Its stdout is discarded; only a bounded tail of stderr is kept.
 */
export async function runToEnd(command: ProcessCommand, timeoutSeconds: number, what: string): Promise<string | null> {
  let stderr = "";
  const end = await runInGroup(command, ["ignore", "ignore", "pipe"], timeoutSeconds, (child) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
  });
  if (end.kind === "error") return `the ${what} run could not start: ${end.message}`;
  // No abort signal is given here: only the timeout stops it early.
  if (end.kind === "timeout" || end.kind === "aborted") return `${what} did not finish within ${timeoutSeconds} s and was stopped`;
  if (end.code === 0) return null;
  const last = stderr.trim().split("\n").pop();
  return `the ${what} run crashed: ${last || exitText(end.code, end.signal)}`;
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
