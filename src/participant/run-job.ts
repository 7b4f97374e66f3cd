import { copyFile, lstat, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { findPython } from "../data/python-interpreter.js";
import { logSafe, runToEnd } from "../data/python-process.js";
import { probeSandbox, type Isolation } from "./isolation.js";
import type { Outcome } from "./python-worker.js";
import { DEFAULT_LIMITS, insideLimits, launchSandbox, WORKER_ENV, type SandboxLimits } from "./sandbox.js";
import { sandboxPython } from "./sandbox-python.js";
import { makeWorkDir, removeWorkDir } from "./work-dir.js";

/** One run of a Python job script, in the sandbox unless `isolation` says "trusted". */
export interface JobRun {
  /** The script's host path; it is bound read-only into the sandbox. */
  script: string;
  /** Files written into the scratch dir before the run (the script's working directory), by name. */
  inputs: Record<string, Uint8Array | string>;
  /** Files read back from the scratch dir after a successful run, by name; each must exist. */
  outputs: string[];
  /** Wall-clock seconds before the run is stopped. */
  timeout_seconds: number;
  /** The sandbox's bounds, each DEFAULT_LIMITS' unless given (the script sets its rlimits before it runs any participant code). */
  limits?: Partial<SandboxLimits>;
  /** Names the run in reasons, e.g. "training". */
  what: string;
  /** "trusted": a plain child process of findPython()'s interpreter, for a run of Basecamp's own script alone. Default "sandbox". */
  isolation?: Isolation;
}

/** Where the sandbox sees the job script. */
const INSIDE_SCRIPT = "/participant/job.py";
/** A script that fails writes its reason here, in the scratch dir. */
export const ERROR_FILE = "error.txt";
/** The largest output file read back. */
const MAX_OUTPUT_BYTES = 512 * 1024 ** 2;
/** The largest reason read back from ERROR_FILE. */
const MAX_ERROR_BYTES = 4096;

/**
 * Runs a Python script once in the sandbox (src/participant/sandbox.ts: no network, its own PIDs,
 * a read-only /usr, one writable scratch dir) with its inputs in the scratch dir, and answers the
 * files it left there. The script is passed the limits as JSON and must apply them before it runs
 * anything it was given. Fails closed where no sandbox can be set up (unless the run is trusted).
 * Never throws: a failure is the script's own reason (ERROR_FILE), the crash, the timeout or the
 * missing output, cleaned of the host's paths.
 */
export async function runSandboxedJob(run: JobRun): Promise<Outcome<{ files: Record<string, Buffer> }>> {
  const python = await jobPython(run.isolation ?? "sandbox");
  if (!python.ok) return python;
  const limits = { ...DEFAULT_LIMITS, ...run.limits };
  let made: { dir: string; scratch: string };
  try {
    made = await makeWorkDir(limits.scratch_bytes);
  } catch (e) {
    return { ok: false, error: `the ${run.what} directory cannot be made: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  const { dir, scratch } = made;
  const clean = (reason: string) => logSafe(logSafe(reason, scratch), dir);
  try {
    await copyFile(run.script, join(dir, "job.py"));
    for (const [name, content] of Object.entries(run.inputs)) await writeFile(join(scratch, name), content);
    let crash: string | null;
    if (python.trusted) {
      // As a trusted worker runs: no rlimits (outside the sandbox's user namespace the process limit would count all the user's processes); the timeout still stops it.
      crash = await runToEnd({ file: python.path, args: ["-B", join(dir, "job.py"), "{}"], env: { ...process.env, ...WORKER_ENV, TMPDIR: scratch }, cwd: scratch }, run.timeout_seconds, run.what);
    } else {
      const started = launchSandbox({ python: python.sandboxed, scratch, files: { [INSIDE_SCRIPT]: join(dir, "job.py") }, args: ["-B", INSIDE_SCRIPT, JSON.stringify(insideLimits(limits))], keep: 3 }, limits);
      if (!started.ok) return started;
      crash = await runToEnd(started.launch.command, run.timeout_seconds, run.what);
      await started.launch.release();
      const bound = crash === null ? null : started.launch.stoppedBy();
      if (bound !== null) return { ok: false, error: `the ${run.what} run was ${bound}` };
    }
    if (crash !== null) return { ok: false, error: clean((await ownReason(scratch)) ?? crash) };
    const files: Record<string, Buffer> = {};
    for (const name of run.outputs) {
      const path = join(scratch, name);
      // lstat: a symlink the script left must not make the host read its target.
      const found = await lstat(path).catch(() => null);
      if (!found?.isFile()) return { ok: false, error: `the ${run.what} run left no ${name} (or not as a plain file)` };
      if (found.size > MAX_OUTPUT_BYTES) return { ok: false, error: `the ${run.what} run left a ${name} of ${found.size} bytes, more than ${MAX_OUTPUT_BYTES}` };
      files[name] = await readFile(path);
    }
    return { ok: true, files };
  } catch (e) {
    return { ok: false, error: clean(`the ${run.what} run failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
  } finally {
    await removeWorkDir(dir);
  }
}

/** The script's own reason for failing, when it left one (a plain file, read bounded). */
async function ownReason(scratch: string): Promise<string | null> {
  const path = join(scratch, ERROR_FILE);
  const found = await lstat(path).catch(() => null);
  if (!found?.isFile()) return null;
  const file = await open(path, "r");
  const head = Buffer.alloc(Math.min(found.size, MAX_ERROR_BYTES));
  await file.read(head, 0, head.length, 0).finally(() => file.close());
  const text = head.toString("utf8").trim();
  return text.length > 0 ? text : null;
}

type JobPython = { ok: true; trusted: true; path: string } | { ok: true; trusted: false; sandboxed: Extract<Awaited<ReturnType<typeof sandboxPython>>, { ok: true }> } | { ok: false; error: string };

/** The interpreter a job runs: the chosen one as it is when trusted, else the sandbox's (failing closed where no sandbox can be set up). */
async function jobPython(isolation: Isolation): Promise<JobPython> {
  if (isolation === "trusted") {
    const found = await findPython();
    return found.ok ? { ok: true, trusted: true, path: found.path } : found;
  }
  const sandbox = await probeSandbox();
  if (!sandbox.ok) return { ok: false, error: sandbox.reason };
  const sandboxed = await sandboxPython();
  return sandboxed.ok ? { ok: true, trusted: false, sandboxed } : sandboxed;
}
