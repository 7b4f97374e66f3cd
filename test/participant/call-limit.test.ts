import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Frame } from "../../src/domain/frame.js";
import { CallLimit, WALL_BACKSTOP } from "../../src/participant/call-limit.js";
import { startPythonWorker, type PythonWorker } from "../../src/participant/python-worker.js";
import { ProcessTreeCpu } from "../../src/participant/tree-cpu.js";
import { descendants } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";

/** A process that spins (node, so no Python is needed). */
const SPIN = `${process.execPath} -e 'while (true);'`;
/** A process that spins for 0.3 s of CPU time and ends. */
const SPIN_A_LITTLE = `${process.execPath} -e 'const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300e3);'`;

const started: ChildProcess[] = [];
function run(script: string): number {
  const child = spawn("sh", ["-c", script], { stdio: "ignore", detached: true });
  started.push(child);
  return child.pid!;
}
afterEach(() => {
  vi.useRealTimers();
  for (const child of started.splice(0)) process.kill(-child.pid!, "SIGKILL");
});

/** One process's own CPU seconds, as /proc shows them. */
function ownCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function treeOf(root: number): ProcessTreeCpu {
  const tree = ProcessTreeCpu.of(root);
  if (tree === null) throw new Error(`no /proc/${root}`);
  return tree;
}

describe("a worker's process tree CPU time", () => {
  it("counts every process below the root, and a process that ended and was reaped keeps counting", async () => {
    const root = run(`${SPIN_A_LITTLE}; exec ${SPIN}`);
    const tree = treeOf(root);
    tree.mark();
    // The shell reaps the short spinner, then becomes the long one (exec): the short one's 0.3 s are in its reaped time.
    await until(() => readFileSync(`/proc/${root}/stat`, "latin1").includes("(node)"));
    expect(tree.sinceMark()! - ownCpu(root)).toBeGreaterThanOrEqual(0.3);
  });

  it("charges a call nothing a process used before it, when no pass had seen that process", async () => {
    const root = run(`${SPIN} & exec sleep 600`);
    const tree = treeOf(root);
    await until(() => descendants(root).length === 1 && ownCpu(descendants(root)[0].pid) > 0.5);
    tree.mark();
    const first = tree.sinceMark()!;
    expect(first).toBeLessThan(0.5);
    await until(() => tree.sinceMark()! > first + 0.2); // and it counts from there on
  });

  it("is not made where /proc does not show the process", () => {
    expect(ProcessTreeCpu.of(2 ** 22 + 1)).toBeNull(); // above Linux's largest pid
  });
});

describe("a call's CPU limit", () => {
  it("stops a call whose process tree has used up its CPU seconds", async () => {
    // Four spinners use the limit up in a quarter of the wall time one would.
    // Started before the call: on a crowded machine the processes' start alone could outlast the idle window.
    const root = run(`${SPIN} & ${SPIN} & ${SPIN} & ${SPIN} & wait`);
    await until(() => descendants(root).filter((p) => ownCpu(p.pid) > 0).length === 4);
    const tree = treeOf(root);
    // 2 s: the backstop (10 s) leaves the spinners room on a machine crowded many times over.
    const stopped = new Promise<number>((resolve) => new CallLimit(tree, 2, () => resolve(tree.sinceMark()!)));
    expect(await stopped).toBeGreaterThanOrEqual(2);
  });

  it(`stops a call that sleeps (idle, or at the wall-clock backstop of ${WALL_BACKSTOP} times its limit), having used almost no CPU`, async () => {
    const tree = treeOf(run("exec sleep 600"));
    const stopped = new Promise<number>((resolve) => new CallLimit(tree, 0.2, () => resolve(tree.sinceMark()!)));
    expect(await stopped).toBeLessThan(0.2);
  });

  it("takes no answer that comes after the limit was used up, whether or not a look saw it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // no look and no backstop ever runs
    const tree = treeOf(run(`exec ${SPIN}`));
    const stop = vi.fn();
    const limit = new CallLimit(tree, 0.3, stop);
    expect(limit.within()).toBe(true);
    // Waits on the spinner's CPU time with a timer the fake ones leave alone.
    while (tree.sinceMark()! <= 0.4) await sleep(20);
    expect(limit.within()).toBe(false);
    expect(stop).not.toHaveBeenCalled();
    limit.clear();
  });

  it("counts a later call from its start in processes the first call started (the interpreter, in a sandbox)", async () => {
    const root = run(`${SPIN} & exec sleep 600`);
    await until(() => descendants(root).length === 1);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }); // no look and no backstop ever runs
    const spinner = descendants(root)[0].pid;
    const tree = treeOf(root);
    const first = new CallLimit(tree, 100, () => {});
    expect(first.within()).toBe(true); // the first call ends with a pass: the spinner is known from here on
    first.clear();
    const second = new CallLimit(tree, 0.3, () => {});
    const from = ownCpu(spinner);
    while (ownCpu(spinner) - from <= 0.4) await sleep(20);
    expect(second.within()).toBe(false);
    second.clear();
  });
});

/** A tree whose CPU seconds are what `cpu` says at the (fake) wall time. */
function fakeTree(cpu: (ms: number) => number): ProcessTreeCpu {
  const from = Date.now();
  return { mark: () => {}, passed: true, sinceMark: () => cpu(Date.now() - from) } as unknown as ProcessTreeCpu;
}

/** The fake wall time at which a call under `limit` seconds is stopped, its tree's CPU seconds at each instant given by `cpu`. */
function stoppedAt(limit: number, cpu: (ms: number) => number, horizonMs: number): number | null {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const from = Date.now();
  let at: number | null = null;
  const call = new CallLimit(fakeTree(cpu), limit, () => (at ??= Date.now() - from));
  vi.advanceTimersByTime(horizonMs);
  call.clear();
  return at;
}

describe("when a call is stopped (fake time, a tree's CPU as a function of it)", () => {
  it("a call that idles from its start is stopped at its limit, not before", () => {
    for (const limit of [0.2, 1, 60]) {
      const at = stoppedAt(limit, () => 0, limit * 10_000)!;
      expect(at).toBeGreaterThanOrEqual(limit * 1000 - 5);
      expect(at).toBeLessThanOrEqual(limit * 1000 + 50);
    }
  });

  it("a call that works, then idles, is stopped one limit after it went idle (within a quarter of it)", () => {
    const at = stoppedAt(8, (ms) => Math.min(ms, 3000) / 1000, 100_000)!;
    expect(at).toBeGreaterThanOrEqual(3000 + 8000 - 5);
    expect(at).toBeLessThanOrEqual(3000 + 8000 + 2000 + 50);
  });

  it("a call that uses its CPU seconds up on every core is stopped soon after, and a slow one only at the backstop", () => {
    const cores = availableParallelism();
    const busy = stoppedAt(4, (ms) => (ms / 1000) * cores, 100_000)!;
    expect(busy).toBeGreaterThanOrEqual(4000 / cores);
    expect(busy).toBeLessThanOrEqual(4000 / cores + 50);
    // 2% of one CPU: above the idle share, far from the limit.
    expect(stoppedAt(4, (ms) => (ms / 1000) * 0.02, 100_000)).toBe(4000 * WALL_BACKSTOP);
  });
});

const BEHAVIOURS = fileURLToPath(new URL("../fixtures/participant/behaviours.py", import.meta.url));
const live = (mode: string): Frame => ({ ids: ["a", "b"], exped: [mode, mode], columns: { feature_a: Float64Array.of(1, 2), feature_b: new Float64Array(2) } });

requires("python").describe("a Python worker's predict limit, in CPU seconds", () => {
  let worker: PythonWorker;
  const start = async () => {
    const out = await startPythonWorker({ source: { kind: "module", path: BEHAVIOURS, params: {} }, isolation: "trusted", label: "behaviours.py" });
    if (!out.ok) throw new Error(out.error);
    worker = out.worker;
  };
  afterEach(() => worker.close());

  it("stops a predict that spins past it, reported as a timeout always was, and the next call runs on a new process", async () => {
    await start();
    expect(await worker.predict(live("spins"), null, 1)).toEqual({ ok: false, error: "predict did not finish within 1 s and was stopped" });
    expect(await worker.predict(live("exact"), null, 30)).toMatchObject({ ok: true });
  });

  it("answers a predict that takes longer than its limit in wall time but not in CPU time (3 s working a third of it, 2 s of CPU allowed)", async () => {
    await start();
    expect(await worker.predict(live("toils"), null, 2)).toMatchObject({ ok: true, ids: ["a", "b"] });
  });

  it("stops a predict that sleeps (idle for its limit), with the same reason", async () => {
    await start();
    expect(await worker.predict(live("hangs"), null, 1)).toEqual({ ok: false, error: "predict did not finish within 1 s and was stopped" });
  });
});
