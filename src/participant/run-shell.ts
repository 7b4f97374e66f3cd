import { fileURLToPath } from "node:url";
import { exitText, runInGroup } from "../data/python-process.js";
import { probeSandbox } from "./isolation.js";
import { DEFAULT_LIMITS, insideLimits, launchSandbox, type SandboxLimits } from "./sandbox.js";
import { sandboxPython } from "./sandbox-python.js";

/** The runner, bound read-only into the sandbox: it applies the limits, then execs `sh -c`. */
export const SHELL_RUNNER = fileURLToPath(new URL("./python/machine_command.py", import.meta.url));
const INSIDE_RUNNER = "/participant/machine_command.py";

export interface ShellRun {
  /** The host directory bound writable as the command's working directory (SANDBOX_SCRATCH inside). */
  workspace: string;
  /** A host copy of SHELL_RUNNER the sandbox's user can read. */
  runner: string;
  command: string;
  /** Real seconds before the command's process group is killed; also its CPU-seconds limit. */
  timeout_seconds: number;
  limits?: Partial<SandboxLimits>;
  /** Output bytes kept (stdout and stderr interleaved as they arrive); the rest is counted, not kept. */
  max_output_bytes: number;
  /** Kills the command's process group at once when it fires (its machine stopped). */
  abort?: AbortSignal;
}

export interface ShellResult {
  outcome: "exited" | "timeout" | "failed";
  /** The exit status when it exited (128 + n for a signal, as the shell reports it); null otherwise. */
  exit_code: number | null;
  /** The kept output; for a command that could not run, why. */
  output: Buffer;
  output_bytes: number;
  truncated: boolean;
}

/**
 * Runs one shell command in the sandbox (src/participant/sandbox.ts: no network, its own PIDs, a
 * read-only /usr) with the workspace as its only writable directory, bounded in time, output and
 * rlimits. Everything it started dies with it, at once when `abort` fires (then a `failed`
 * outcome). Never throws: a sandbox that cannot be set up is a `failed` outcome naming why.
 */
export async function runShell(run: ShellRun): Promise<ShellResult> {
  const failed = (why: string): ShellResult => ({ outcome: "failed", exit_code: null, output: Buffer.from(why), output_bytes: 0, truncated: false });
  const sandbox = await probeSandbox();
  if (!sandbox.ok) return failed(sandbox.reason);
  const python = await sandboxPython();
  if (!python.ok) return failed(python.error);
  const limits = { ...DEFAULT_LIMITS, cpu_seconds: run.timeout_seconds, ...run.limits };
  const started = launchSandbox(
    { python, scratch: run.workspace, files: { [INSIDE_RUNNER]: run.runner }, args: ["-B", INSIDE_RUNNER, JSON.stringify(insideLimits(limits)), run.command], keep: 3 },
    limits,
  );
  if (!started.ok) return failed(started.error);
  const { command } = started.launch;
  const kept: Buffer[] = [];
  let size = 0;
  let total = 0;
  const take = (chunk: Buffer) => {
    total += chunk.length;
    if (size >= run.max_output_bytes) return;
    const part = chunk.subarray(0, run.max_output_bytes - size);
    kept.push(part);
    size += part.length;
  };
  const end = await runInGroup(command, ["ignore", "pipe", "pipe"], run.timeout_seconds, (child) => {
    child.stdout!.on("data", take);
    child.stderr!.on("data", take);
  }, run.abort);
  await started.launch.release();
  const bound = started.launch.stoppedBy();
  // A process the memory limit stopped is named after what the command printed, kept whatever the output's bound.
  const note = bound === null ? [] : [Buffer.from(`\nbasecamp: a process of this command was ${bound}\n`)];
  if (end.kind === "error") return failed(`the command could not start: ${end.message}`);
  const base = { output: Buffer.concat([...kept, ...note]), output_bytes: total, truncated: total > size };
  if (end.kind === "timeout") return { outcome: "timeout", exit_code: null, ...base };
  if (end.kind === "aborted") return failed("the command was stopped before its end");
  if (end.code === null) return failed(`the command's sandbox ended: ${exitText(end.code, end.signal)}`);
  return { outcome: "exited", exit_code: end.code, ...base };
}
