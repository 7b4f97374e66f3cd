import { beforeEach, expect, vi } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import type { PythonWorker } from "../../src/participant/python-worker.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { requires } from "../helpers/requires.js";

/**
 * Every sandbox launch is counted; with `broken` set, each one runs what a machine whose
 * bubblewrap cannot make namespaces runs: a process that fails at once with bwrap's message.
 */
const sandboxes = vi.hoisted(() => ({ launches: 0, broken: false }));
vi.mock("../../src/participant/sandbox.js", async (load) => {
  const real = await load<typeof import("../../src/participant/sandbox.js")>();
  const launchSandbox: typeof real.launchSandbox = (spec, limits) => {
    sandboxes.launches++;
    const started = real.launchSandbox(spec, limits);
    if (!sandboxes.broken || !started.ok) return started;
    const fails = { ...started.launch.command, file: "/bin/sh", args: ["-c", "echo 'bwrap: No permissions to create new namespace' >&2; exit 1"] };
    return { ok: true, launch: { ...started.launch, command: fails } };
  };
  return { ...real, launchSandbox };
});

/** Fresh modules for each test: the sandbox is probed once per process, and each test probes it anew. */
async function fresh() {
  vi.resetModules();
  const { startLocalWorker } = await import("../../src/participant/local-worker.js");
  const isolation = await import("../../src/participant/isolation.js");
  return { startLocalWorker, ...isolation };
}

beforeEach(() => {
  sandboxes.launches = 0;
  sandboxes.broken = false;
});

const live: Frame = { ids: ["a", "b", "c"], exped: ["exped_0001", "exped_0001", "exped_0001"], columns: { feature_x: Float64Array.of(3, 1, 2) } };

async function predicted(worker: PythonWorker): Promise<number[]> {
  const answer = await worker.predict(live, null, 30);
  await worker.close();
  if (!answer.ok) throw new Error(answer.error);
  return [...answer.values];
}

const MEAN_RANKS = [5 / 6, 1 / 6, 3 / 6];

requires("sandbox").it("starts the worker in the sandbox without the probe's own sandbox: its start answers the probe", async () => {
  const { startLocalWorker, localSandbox, localIsolation } = await fresh();
  const pickle = await predictPickles();
  const started = await startLocalWorker({ source: { kind: "pickle", bytes: pickle("mean_rank") }, label: "model.pkl" });
  if (!started.ok) throw new Error(started.error);
  expect(await localSandbox()).toEqual({ ok: true });
  expect(await localIsolation()).toBe("sandbox");
  expect(sandboxes.launches).toBe(1);
  expect(await predicted(started.worker)).toEqual(MEAN_RANKS);
});

requires("python").it("where no sandbox can be set up, the probe says why and the worker runs as the user, as localIsolation() would run it", async () => {
  const { startLocalWorker, localSandbox, localIsolation } = await fresh();
  sandboxes.broken = true;
  const pickle = await predictPickles();
  const started = await startLocalWorker({ source: { kind: "pickle", bytes: pickle("mean_rank") }, label: "model.pkl" });
  if (!started.ok) throw new Error(started.error);
  expect(await localSandbox()).toEqual({ ok: false, reason: "no sandbox can be set up here (bubblewrap): bwrap: No permissions to create new namespace" });
  expect(await localIsolation()).toBe("trusted");
  expect(sandboxes.launches).toBe(2); // the worker's, then the probe's
  expect(await predicted(started.worker)).toEqual(MEAN_RANKS);
});

requires("sandbox").it("a file that fails to load in a working sandbox is the file's failure, not a reason to run it unsandboxed", async () => {
  const { startLocalWorker, localSandbox } = await fresh();
  const started = await startLocalWorker({ source: { kind: "pickle", bytes: Buffer.from("not a pickle") }, label: "model.pkl" });
  const sandbox = await localSandbox();
  expect(started.ok).toBe(false);
  if (started.ok) return;
  expect(started.error).toMatch(/^the model file does not unpickle: /);
  expect(sandbox).toEqual({ ok: true });
  expect(sandboxes.launches).toBe(2); // the worker's, then the probe's: no third, unsandboxed
});

requires("python").it("with --no-sandbox, the worker runs as the user and no sandbox is launched", async () => {
  const { startLocalWorker, declineSandbox, localSandbox } = await fresh();
  declineSandbox("--no-sandbox");
  const pickle = await predictPickles();
  const started = await startLocalWorker({ source: { kind: "pickle", bytes: pickle("mean_rank") }, label: "model.pkl" });
  if (!started.ok) throw new Error(started.error);
  expect(await localSandbox()).toEqual({ ok: false, reason: "--no-sandbox" });
  expect(sandboxes.launches).toBe(0);
  expect(await predicted(started.worker)).toEqual(MEAN_RANKS);
});
