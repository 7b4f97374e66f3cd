import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { ForkServers } from "../../src/participant/fork-server.js";
import { startPythonWorker, type PythonWorker, type WorkerOptions } from "../../src/participant/python-worker.js";
import { DEFAULT_LIMITS } from "../../src/participant/sandbox.js";
import { boundsMode } from "../../src/participant/sandbox-group.js";
import { processesWith } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";

const HOSTILE = fileURLToPath(new URL("../fixtures/participant/hostile.py", import.meta.url));

/** Rows whose exped label tells hostile.py which escape to try. */
function attempt(mode: string): Frame {
  return { ids: ["a", "b"], exped: [mode, mode], columns: { feature_a: Float64Array.of(1, 2) } };
}

/** What the hostile predict reports: 1 when it got through (or a count), the first row's value. */
async function tried(worker: PythonWorker, mode: string, timeoutSeconds = 30): Promise<number> {
  const out = await worker.predict(attempt(mode), null, timeoutSeconds);
  if (!out.ok) throw new Error(`${mode}: ${out.error}`);
  return out.values[0];
}

// A worker forked from a fork server (a sweep's) holds to every guarantee a sandbox of its own does.
for (const forked of [false, true]) requires("sandbox").describe(`a sandboxed worker${forked ? " forked from a fork server" : ""} running hostile code`, () => {
  const outside = mkdtempSync(join(tmpdir(), "basecamp-hostile-"));
  const secretFile = join(outside, "keys.json");
  writeFileSync(secretFile, '{"api_key": "secret"}');
  const token = `${process.pid}.${forked ? 26 : 25}`;
  const forks = forked ? new ForkServers() : undefined;
  const start = (opts: Omit<WorkerOptions, "isolation" | "label" | "forks">) => startPythonWorker({ ...opts, isolation: "sandbox", label: "hostile.py", forks });
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  let connections = 0;
  let port = 0;
  let worker: PythonWorker;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
    process.env.BASECAMP_TEST_SECRET = "hunter2";
    const params = { secret_file: secretFile, host_dir: outside, port, token };
    const started = await start({ source: { kind: "module", path: HOSTILE, params } });
    delete process.env.BASECAMP_TEST_SECRET;
    if (!started.ok) throw new Error(started.error);
    worker = started.worker;
  });
  afterAll(async () => {
    await worker?.close();
    await forks?.close();
    server.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it("runs as an unprivileged user", async () => {
    expect(await tried(worker, "uid")).toBe(65534);
  });

  it("runs at a lower CPU priority than the server", async () => {
    expect(await tried(worker, "nice")).toBe(Math.min(19, getPriority() + 10));
  });

  it("cannot read the host's files (the store, the keys) nor see the server's environment", async () => {
    expect(await tried(worker, "read_secret")).toBe(0);
    expect(await tried(worker, "env")).toBe(0);
  });

  it("writes nowhere but its scratch dir", async () => {
    expect(await tried(worker, "write")).toBe(0);
    expect(existsSync(join(outside, "escaped"))).toBe(false);
  });

  it("cannot reach the network, not even the host's loopback", async () => {
    expect(await tried(worker, "network")).toBe(0);
    expect(connections).toBe(0);
  });

  it("is stopped at its memory limit, saying so (a MemoryError where rlimits bound it), and a restarted worker goes on", async () => {
    const cgroup = boundsMode().kind === "cgroup";
    // Where rlimits bound it, the default total's per-process share (2 GiB) is under the 6 GiB asked.
    const limits = cgroup ? { memory_bytes: 512 * 1024 ** 2 } : {};
    const small = await start({ source: { kind: "module", path: HOSTILE, params: {} }, limits });
    if (!small.ok) throw new Error(small.error);
    const reason = cgroup ? /^memory: the predict run was stopped at the sandbox's memory limit \(512 MiB for the whole sandbox/ : /^memory: predict raised MemoryError/;
    await expect(tried(small.worker, "memory")).rejects.toThrow(reason);
    expect(await tried(small.worker, "uid")).toBe(65534);
    await small.worker.close();
  });

  it("stops a process at its CPU-seconds cap, and caps the size of a file it writes", async () => {
    const limits = { cpu_seconds: 2, file_size_bytes: 1024 * 1024 };
    const capped = await start({ source: { kind: "module", path: HOSTILE, params: {} }, limits });
    if (!capped.ok) throw new Error(capped.error);
    await expect(tried(capped.worker, "big_file")).rejects.toThrow("big_file: predict raised OSError: [Errno 27] File too large");
    await expect(tried(capped.worker, "cpu", 20)).rejects.toThrow(/^cpu: the predict run crashed: killed by SIG(XCPU|KILL)/);
    await capped.worker.close();
  });

  it("leaves no double-forked daemon behind once closed", async () => {
    const daemon = await start({ source: { kind: "module", path: HOSTILE, params: { token: `${token}1` } } });
    if (!daemon.ok) throw new Error(daemon.error);
    expect(await tried(daemon.worker, "daemon")).toBe(1);
    expect(processesWith(`${token}1`)).toHaveLength(1);
    await daemon.worker.close();
    await until(() => processesWith(`${token}1`).length === 0);
  });

  it("contains a fork bomb under its process cap, keeps the host responsive, and leaves nothing once stopped", async () => {
    const bomb = await start({ source: { kind: "module", path: HOSTILE, params: { token: `${token}2` } } });
    if (!bomb.ok) throw new Error(bomb.error);
    const call = bomb.worker.predict(attempt("fork_bomb"), null, 10);
    // Wait on the event (the bomb past 10 processes, or the call's end), not on a time of its own.
    let ended = false;
    void call.then(() => (ended = true));
    let most = 0;
    while (!ended && most <= 10) {
      most = Math.max(most, processesWith(`${token}2`).length);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(most).toBeGreaterThan(10);
    execFileSync("true", [], { timeout: 5_000 }); // the host still starts processes
    expect(processesWith(`${token}2`).length).toBeLessThan(DEFAULT_LIMITS.processes);
    const out = await call;
    expect(out).toEqual({ ok: false, error: "predict did not finish within 10 s and was stopped" });
    await until(() => processesWith(`${token}2`).length === 0);
    await bomb.worker.close();
  });
});
