import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { packageFile } from "../../src/package-files.js";
import { jobLine, parseResultLine } from "./cell-lines.js";
import type { PlannedCell } from "./cells.js";
import type { PoolRun } from "./local-pool.js";
import { SWEEP_WORKER_NODE_FLAGS } from "./worker-node-flags.js";
import { inWorldOrder } from "./world-order.js";

export interface RayOptions {
  /** The cluster's address (host:port), or "auto" for the one started on this machine. */
  address: string;
  /** A Python that imports ray. */
  python: string;
  /** CPUs each cell's task asks for. */
  cpus: number;
  /** Memory each cell's task asks for, in MiB (0: none). */
  memoryMb: number;
  /** The interpreter the cells' Python strategies run on (a path every node has); else each node's own choice. */
  strategyPython?: string;
}

/** The driver, beside this file (copied into dist/ by the build). */
const DRIVER = fileURLToPath(new URL("./ray_driver.py", import.meta.url));

/**
 * What a Ray process needs to take 127.0.0.1 as its node's address. Without it Ray (2.58) swaps a
 * loopback address for the machine's outward one: a head started with `--node-ip-address
 * 127.0.0.1` binds its GCS on every interface, and a driver given `127.0.0.1:PORT` dials the
 * outward address and never connects to a head bound on the loopback.
 */
export const LOOPBACK_ENV = { RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER: "0" };

/** Whether a cluster address is this machine's loopback (a head started as the README shows). */
export function onLoopback(address: string): boolean {
  const host = address.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** The last bytes of the driver's stderr kept, to say why it failed. */
const STDERR_TAIL = 8192;

/**
 * The driver's exit code when it refused the sweep before submitting a cell (a request no node of
 * the cluster can meet): the last line of its stderr is the reason, in the user's words, with the
 * flag to change. ray_driver.py's REFUSED.
 */
const REFUSED = 3;

/**
 * Runs cells as tasks on a Ray cluster through the shipped driver (ray_driver.py): the cells go to
 * its stdin, each outcome comes back on its stdout as its task finishes. Scheduling, resources and
 * retries after a node's death are Ray's. A driver that fails (no cluster at the address, no ray in
 * the Python) fails the sweep with its stderr; one that refuses the sweep, with its reason alone.
 */
export async function runRayPool(cells: PlannedCell[], opts: RayOptions, run: PoolRun): Promise<void> {
  if (cells.length === 0) return;
  const byIndex = new Map(cells.map((c) => [c.index, c] as const));
  const driver = spawn(
    opts.python,
    [
      DRIVER,
      ...["--address", opts.address, "--node", process.execPath, "--basecamp", packageFile("bin/basecamp.js")],
      ...SWEEP_WORKER_NODE_FLAGS.map((flag) => `--node-flag=${flag}`),
      ...["--num-cpus", String(opts.cpus), "--memory-mb", String(opts.memoryMb)],
      ...(opts.strategyPython ? ["--strategy-python", opts.strategyPython] : []),
      ...["--parent", String(process.pid)],
    ],
    { stdio: ["pipe", "pipe", "pipe"], detached: true, env: { ...process.env, RAY_USAGE_STATS_ENABLED: "0", ...(onLoopback(opts.address) ? LOOPBACK_ENV : {}) } },
  );
  let stderr = "";
  driver.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString("utf8")).slice(-STDERR_TAIL)));
  driver.stdin.on("error", () => {});
  // SIGKILL: a driver still in ray.init does not run Python's SIGTERM handler; it holds nothing to
  // save (each outcome is recorded as it arrives), and Ray ends a dead driver's tasks itself.
  const kill = () => {
    try {
      if (driver.pid !== undefined) process.kill(-driver.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  run.signal.addEventListener("abort", kill, { once: true });
  createInterface({ input: driver.stdout }).on("line", (line) => {
    const result = parseResultLine(line);
    const cell = result && byIndex.get(result.index);
    if (!result || !cell || run.signal.aborted) return;
    byIndex.delete(result.index);
    run.onOutcome(cell, result.outcome);
  });
  // Submitted world by world: a Ray worker keeps its last few worlds (world-order.ts).
  for (const c of inWorldOrder(cells)) driver.stdin.write(`${jobLine(c)}\n`);
  driver.stdin.end();
  const [code, signal] = (await new Promise((resolve, reject) => {
    driver.on("error", (e) => reject(new Error(`--ray-python ${opts.python}: ${e.message}`)));
    driver.on("close", (c, s) => resolve([c, s]));
  })) as [number | null, NodeJS.Signals | null];
  run.signal.removeEventListener("abort", kill);
  if (run.signal.aborted) return;
  const lastLines = (n: number) => stderr.trim().split("\n").slice(-n).join(" ");
  if (code === REFUSED) throw new Error(lastLines(1));
  if (code !== 0 || byIndex.size > 0) {
    throw new Error(`the Ray driver exited (${signal ? `signal ${signal}` : `code ${code}`}) with ${byIndex.size} cells unfinished: ${lastLines(5)}`);
  }
}
