import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { ForkServers } from "../../src/participant/fork-server.js";
import { startPythonWorker, type PythonWorker } from "../../src/participant/python-worker.js";
import { boundsMode } from "../../src/participant/sandbox-group.js";
import { requires } from "../helpers/requires.js";

/**
 * What a forked worker finds in its sandbox: the files in its scratch (/tmp) and the other
 * processes of its PID namespace; then it leaves files (in a directory it may no longer write, and
 * a link to it) and a process behind. Its exped label
 * `kill_server` makes it kill its fork server (its parent) instead.
 */
const LOOKS_AROUND = `
import os, signal, subprocess
import pandas as pd

def predict(live, benchmark=None):
    if live["exped"].iloc[0] == "kill_server":
        os.kill(os.getppid(), signal.SIGKILL)
        signal.pause()
    files = len(os.listdir("/tmp"))
    others = len([p for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()])
    open("/tmp/left-behind", "w").close()
    os.makedirs("/tmp/closed/inner", exist_ok=True)
    open("/tmp/closed/inner/file", "w").close()
    for d in ("/tmp/closed/inner", "/tmp/closed"):
        os.chmod(d, 0o500)
    if not os.path.islink("/tmp/link"):
        os.symlink("/tmp/closed", "/tmp/link")
    subprocess.Popen(["sleep", "600"], start_new_session=True)
    return pd.Series([float(files), float(others)], index=live.index)
`;

const dir = mkdtempSync(join(tmpdir(), "basecamp-fork-test-"));
const strategy = join(dir, "looks_around.py");
writeFileSync(strategy, LOOKS_AROUND);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const live = (exped: string): Frame => ({ ids: ["a", "b"], exped: [exped, exped], columns: { feature_a: Float64Array.of(1, 2) } });

/** Where rlimits bound a sandbox instead of a cgroup, workers are never forked (python-worker.ts). */
const forking = (name: string, body: () => Promise<void>) => it.skipIf(boundsMode().kind !== "cgroup")(name, body);

requires("sandbox").describe("fork servers", () => {
  let forks: ForkServers;
  beforeEach(() => {
    forks = new ForkServers();
  });
  afterEach(() => forks.close());

  const start = async (): Promise<PythonWorker> => {
    const out = await startPythonWorker({ source: { kind: "module", path: strategy, params: {} }, isolation: "sandbox", label: "looks_around.py", forks });
    if (!out.ok) throw new Error(out.error);
    return out.worker;
  };
  /** [files in /tmp, other processes in the sandbox] as the worker sees them. */
  const looks = async (worker: PythonWorker) => {
    const out = await worker.predict(live("look"), null, 30);
    if (!out.ok) throw new Error(out.error);
    return Array.from(out.values);
  };

  forking("fork each worker into a sandbox with none of the files or processes the worker before it left, one worker per server at a time", async () => {
    const first = await start();
    // The sandbox's init and the fork server besides the worker; then its own file and process.
    expect(await looks(first)).toEqual([0, 2]);
    expect(await looks(first)).toEqual([3, 3]);
    await first.close();
    const next = await start();
    expect(await looks(next)).toEqual([0, 2]);
    const beside = await start(); // the first server is busy: a second one starts
    expect(await looks(beside)).toEqual([0, 2]);
    expect(await looks(next)).toEqual([3, 3]);
    await Promise.all([next.close(), beside.close()]);
  });

  forking("fails the call of a worker that killed its fork server, and forks the next worker from a new one", async () => {
    const worker = await start();
    const out = await worker.predict(live("kill_server"), null, 30);
    expect(out).toMatchObject({ ok: false, error: "the predict run crashed: the worker's fork server ended before the worker did" });
    await worker.close();
    expect(await looks(await start())).toEqual([0, 2]);
  });
});
