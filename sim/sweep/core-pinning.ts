import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * The CPUs this process may run on, from a `Cpus_allowed_list` line of /proc/PID/status ("0-1",
 * "0,2-3"), in order; null when there is no such line or it cannot be read.
 */
export function allowedCpus(status: string): number[] | null {
  const line = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(status);
  if (!line) return null;
  const cpus: number[] = [];
  for (const part of line[1].split(",")) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return null;
    const [from, to] = [Number(range[1]), Number(range[2] ?? range[1])];
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu);
  }
  return cpus.length > 0 ? cpus : null;
}

/**
 * The CPU for each of a local pool's `workers` slots, or null to leave them to the scheduler.
 *
 * When the pool has a worker for every CPU it may use, each sweep-worker is pinned with its whole
 * process tree (the fork servers, the launchers and the sandboxed Python workers inherit it) to a
 * CPU of its own: a cell's Node and Python then hand over to each other on one core and never
 * migrate. On the 2-core bench machine, quiet, `--workers 2` took 0.1132 s a cell (steady) pinned
 * against 0.1161 unpinned, the means of 16 alternating pairs (pinned faster in 12, 1 even), about 70
 * migrations a 24-cell sweep against about 280 and the same CPU a cell. With a CPU to spare the
 * scheduler's freedom is worth more (a cell's Node and Python run at once on two cores), so a
 * smaller pool is not pinned. Pinning changes where a cell runs, never what it computes.
 */
export function workerCpus(workers: number, cpus: number[] | null, hasTaskset: () => boolean): number[] | null {
  return cpus !== null && workers === cpus.length && hasTaskset() ? cpus : null;
}

/** workerCpus on this machine: the CPUs from /proc/self/status, the pinning done by util-linux's taskset. */
export function poolCpus(workers: number): number[] | null {
  let status: string;
  try {
    status = readFileSync("/proc/self/status", "utf8");
  } catch {
    return null;
  }
  return workerCpus(workers, allowedCpus(status), () => spawnSync("taskset", ["--version"], { stdio: "ignore" }).status === 0);
}

/** The command that starts `file args` pinned to `cpu` (taskset), or as it is when `cpu` is undefined. */
export function pinnedCommand(cpu: number | undefined, file: string, args: string[]): [string, string[]] {
  return cpu === undefined ? [file, args] : ["taskset", ["--cpu-list", String(cpu), file, ...args]];
}
