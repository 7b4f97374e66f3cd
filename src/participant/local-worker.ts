import { probeBy, probeSandbox, sandboxDeclined } from "./isolation.js";
import { startPythonWorker, type Outcome, type PythonWorker, type WorkerOptions } from "./python-worker.js";

/**
 * A worker for a local command's own file, run as localIsolation() would have it run (sandboxed
 * where this machine has a sandbox and the user did not decline it, else as the user), started
 * without waiting for the sandbox probe: the sandboxed worker is launched at once, and its own
 * start answers the probe (probeBy), so the interpreter, its imports and the file's load begin as
 * soon as the interpreter is known, with no probe's sandbox before them. Where that worker did not
 * start, the probe runs as usual and decides: a sandbox it cannot set up gives a worker run as the
 * user (the probe's reason is what the interpreter's line shows), else the failure is the file's.
 * Call it before anything probes the sandbox, or the probe runs beside it.
 */
export function startLocalWorker(opts: Omit<WorkerOptions, "isolation" | "awaitProbe">): Promise<Outcome<{ worker: PythonWorker }>> {
  if (sandboxDeclined()) return startPythonWorker({ ...opts, isolation: "trusted" });
  const sandboxed = startPythonWorker({ ...opts, isolation: "sandbox", awaitProbe: false });
  probeBy(sandboxed.then((s) => s.ok));
  return sandboxed.then(async (started) => {
    if (started.ok || (await probeSandbox()).ok) return started;
    return startPythonWorker({ ...opts, isolation: "trusted" });
  });
}
