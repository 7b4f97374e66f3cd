import { spawn } from "node:child_process";
import { findModules, PREDICT_MODULES } from "../data/python-interpreter.js";
import { DEFAULT_LIMITS, launchSandbox } from "./sandbox.js";
import { sandboxPython } from "./sandbox-python.js";
import { makeWorkDir, removeWorkDir } from "./work-dir.js";

/**
 * How participants' code runs: "sandbox" = bubblewrap containment (src/participant/sandbox.ts);
 * "trusted" = a plain child process in its own process group, for a user's own files on a machine
 * without bubblewrap.
 */
export type Isolation = "sandbox" | "trusted";

let probed: Promise<{ ok: true } | { ok: false; reason: string }> | null = null;
/** Why local commands run unsandboxed by the user's choice (`--no-sandbox`), or null. */
let declined: string | null = null;

/** A local command's `--no-sandbox`: the user's own files run as the user (localIsolation() answers "trusted"). */
export function declineSandbox(why: string): void {
  declined = why;
}

/**
 * Probed once per process: can a sandbox be set up here (bwrap present and user namespaces usable,
 * the interpreter running inside it, numpy's compiled modules and their libraries loading there,
 * PREDICT_MODULES found there)?
 */
export function probeSandbox(): Promise<{ ok: true } | { ok: false; reason: string }> {
  probed ??= probe();
  return probed;
}

/** Whether a local command's user declined the sandbox (`--no-sandbox`). */
export function sandboxDeclined(): boolean {
  return declined !== null;
}

/**
 * Lets a sandboxed worker's own start answer the probe, when nothing has probed yet: a worker
 * that started in the sandbox and loaded its source there (numpy, pandas and cloudpickle imported
 * inside it) has shown everything the probe checks, so the probe's own sandbox need not start.
 * When `started` is false (the worker did not start or did not load), the probe runs as usual.
 */
export function probeBy(started: Promise<boolean>): void {
  probed ??= started.then(
    (ok) => (ok ? { ok: true as const } : probe()),
    () => probe(),
  );
}

/** The isolation for a local command running the user's own files: "sandbox" when probeSandbox() is ok and not declined, else "trusted". */
export async function localIsolation(): Promise<Isolation> {
  return (await localSandbox()).ok ? "sandbox" : "trusted";
}

/** Whether a local command's Python runs sandboxed, and why not (`--no-sandbox`, or no sandbox here). */
export async function localSandbox(): Promise<{ ok: true } | { ok: false; reason: string }> {
  return declined !== null ? { ok: false, reason: declined } : probeSandbox();
}

async function probe(): Promise<{ ok: true } | { ok: false; reason: string }> {
  // Its directory (a tmpfs mount) is made while the interpreter is inspected, not after.
  const making = makeWorkDir(DEFAULT_LIMITS.scratch_bytes);
  making.catch(() => {}); // a failure is met where it is awaited below
  const python = await sandboxPython();
  if (!python.ok) {
    await making.then(({ dir }) => removeWorkDir(dir), () => {});
    return { ok: false, reason: python.error };
  }
  const { dir, scratch } = await making;
  const started = launchSandbox({ python, scratch, files: {}, args: ["-c", `import numpy\n${findModules(PREDICT_MODULES)}`], keep: 3 }, DEFAULT_LIMITS);
  if (!started.ok) {
    await removeWorkDir(dir);
    return { ok: false, reason: `no sandbox can be set up here: ${started.error}` };
  }
  const { command } = started.launch;
  try {
    const failure = await new Promise<string | null>((resolve) => {
      const child = spawn(command.file, command.args, { env: command.env, cwd: command.cwd, stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 });
      let stderr = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
      child.on("error", (e) => resolve(e.message));
      child.on("close", (code, signal) => resolve(code === 0 ? null : stderr.trim().split("\n").pop() || `exit ${code ?? signal}`));
    });
    return failure === null ? { ok: true } : { ok: false, reason: `no sandbox can be set up here (bubblewrap): ${failure}` };
  } finally {
    await started.launch.release();
    await removeWorkDir(dir);
  }
}
