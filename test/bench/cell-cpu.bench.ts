/**
 * Where a sweep cell's CPU goes (`npm run bench -- cell-cpu`): the 24-cell grid of sweep.bench.ts
 * at `--workers 1` and at `--workers 2` (BENCH_WORKERS, e.g. `2` for one of them), one after the
 * other, each under `perf record` (which follows every child: the sweep-worker, its
 * launchers, the sandboxes and the Python workers forked in them), its samples split by process
 * role, per cell, from the third cell's Python worker to the last one's (leaving out what a run
 * pays once). It also gives how much of that CPU ran while another of the sweep's threads was
 * running too, in 1 ms bins: with one worker that work rides on the idle second core, with two it
 * takes a core from the other cell, so it is what keeps `--workers 2` under 2× `--workers 1`; and,
 * role by role, how much more CPU a cell takes at `--workers 2` than at `--workers 1` (two cells at
 * once). CPU time is far less disturbed than wall time by other work on a shared machine (though
 * not immune: caches are shared). The pool gives each configuration its own Node flags
 * (local-pool.ts), as in a real sweep.
 * The sweep-worker's other threads are V8's (TurboFan compiling, the garbage collector's helpers)
 * and libuv's; their TurboFan and GC shares are told apart by symbol. Each role's time in the
 * kernel is given too, and the kernel's time split by what it was doing, from each sample's kernel
 * stack (perf records them with `-g`): page faults (a process's first touch of a page: a forked
 * Python worker's writes to pages it shares with its fork server, fresh pages zeroed), fork (a
 * process copying its page tables: the sweep-worker's Node starting each cell's launcher, the fork
 * server forking its worker), exec, exit. Needs `perf` (skipped without it).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt, report } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const CELLS = 24;
const HZ = 2000;
const BIN_S = 0.001;
/** V8's garbage collector's code, by symbol: what its helper threads run besides TurboFan. */
const GC_SYMBOL = /Marking|Sweep|Scaveng|Evacuat|heap::|Heap::|HeapObject|FreeList|MemoryChunk/;
/** The pools measured: BENCH_WORKERS, a comma-separated list (default 1,2). */
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);

interface Sample {
  pid: number;
  tid: number;
  t: number;
  /** The function the sample was taken in. */
  sym: string;
  /** What the kernel was doing (KERNEL_CAUSES), or null for a sample taken outside the kernel. */
  kernel: string | null;
}

/** What a kernel sample was doing: the first of these whose function is on its kernel stack, else "other". */
const KERNEL_CAUSES: [string, RegExp][] = [
  ["page faults", /^exc_page_fault$/],
  ["fork", /^kernel_clone$/],
  ["exec", /execve/],
  ["exit", /^do_exit$/],
];

/** A kernel sample's cause from its kernel stack's functions, leaf first. */
function kernelCause(stack: string[]): string {
  return KERNEL_CAUSES.find(([, fn]) => stack.some((f) => fn.test(f)))?.[0] ?? "other";
}

export async function run(): Promise<void> {
  ensureBuilt();
  if (spawnSync("perf", ["--version"]).status !== 0) return report("Sweep cell CPU by role", { skipped: "no perf on PATH" });
  const dir = mkdtempSync(join(tmpdir(), "basecamp-sweep-cpu-"));
  try {
    const grid = join(dir, "grid.json");
    const alphas = Array.from({ length: CELLS }, (_, i) => 10 ** (i / 2 - 1));
    writeFileSync(grid, JSON.stringify({ base: { strategy: join(root, "examples/agent.py"), scenario: "default-tournament" }, axes: { params: { alpha: alphas } } }));
    const byWorkers = new Map<number, Breakdown>();
    for (const workers of WORKERS) byWorkers.set(workers, await recorded(dir, grid, workers));
    const lines: Record<string, string> = { load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") };
    const keys = [...new Set([...byWorkers.values()].flatMap((b) => Object.keys(b.lines)))];
    for (const k of keys) lines[k] = WORKERS.map((w) => `w${w}: ${byWorkers.get(w)!.lines[k] ?? "none"}`).join(" | ");
    const [one, two] = [byWorkers.get(1), byWorkers.get(2)];
    if (one && two) {
      const roles = Object.keys(two.seconds).filter((r) => r !== "all");
      const change = (r: string) => `${r} ${signed(two.seconds[r] - (one.seconds[r] ?? 0))}`;
      lines["w2 minus w1"] = `${signed(two.seconds.all - one.seconds.all)} s of CPU a cell: ${roles.map(change).join(", ")}`;
    }
    report(`Sweep cell CPU by role: ${CELLS} backtests of examples/agent.py on default-tournament, --workers ${WORKERS.join(" and ")}, perf at ${HZ} Hz`, lines);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

/** A recorded sweep's report lines, and its CPU a cell in seconds by role (and "all"). */
interface Breakdown {
  lines: Record<string, string>;
  seconds: Record<string, number>;
}

/** One sweep of the grid at `workers` under `perf record`, its samples split by role. */
async function recorded(dir: string, grid: string, workers: number): Promise<Breakdown> {
  const data = join(dir, `perf-${workers}.data`);
  const sweep = [process.execPath, join(root, "bin/basecamp.js"), "sweep", grid, "--out", join(dir, `out-${workers}.db`), "--workers", String(workers)];
  const code = await new Promise<number | null>((done) => spawn("perf", ["record", "-q", "-g", "-e", "cpu-clock", "-F", String(HZ), "-o", data, "--", ...sweep], { cwd: root, stdio: "ignore" }).on("close", done));
  if (code !== 0) throw new Error(`perf record of the sweep at --workers ${workers}: exit ${code}`);
  const tasks = spawnSync("perf", ["script", "-i", data, "--show-task-events", "-F", "comm,pid,tid,time"], { encoding: "utf8", maxBuffer: 1 << 28 }).stdout;
  const syms = spawnSync("perf", ["script", "-i", data, "-F", "pid,tid,time,ip,sym,dso"], { encoding: "utf8", maxBuffer: 1 << 30 }).stdout;
  return breakdown(tasks, syms);
}

/**
 * perf script's samples, each a line `pid/tid time:` and then its stack, a frame a line
 * (`ip function (dso)`, leaf first), kept when taken in [from, to).
 */
function samplesOf(script: string, from: number, to: number): Sample[] {
  const samples: Sample[] = [];
  let head: { pid: number; tid: number; t: number } | null = null;
  let frames: { fn: string; dso: string }[] = [];
  const flush = () => {
    if (head && head.t >= from && head.t < to && frames.length > 0) {
      const kernel = frames.filter((f) => f.dso === "[kernel.kallsyms]").map((f) => f.fn);
      samples.push({ ...head, sym: frames[0].fn, kernel: frames[0].dso === "[kernel.kallsyms]" ? kernelCause(kernel) : null });
    }
  };
  for (const line of script.split("\n")) {
    const sample = /^\s*(\d+)\/(\d+)\s+(\d+\.\d+):\s*$/.exec(line);
    if (sample) {
      flush();
      head = { pid: Number(sample[1]), tid: Number(sample[2]), t: Number(sample[3]) };
      frames = [];
      continue;
    }
    const frame = /^\s+[0-9a-f]+\s+(.*?)\s+\(([^()]*)\)$/.exec(line);
    if (frame) frames.push({ fn: frame[1].replace(/\+0x[0-9a-f]+$/, ""), dso: frame[2] });
  }
  flush();
  return samples;
}

/** The report's lines from perf's task events (forks, execs) and its samples with their stacks. */
function breakdown(tasks: string, syms: string): Breakdown {
  const parent = new Map<number, number>();
  const execs = new Map<number, string>();
  const forkedAt = new Map<number, number>();
  for (const line of tasks.split("\n")) {
    const fork = /\s(\d+\.\d+): PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):\d+\)/.exec(line);
    if (fork && fork[2] === fork[3] && fork[2] !== fork[4]) {
      parent.set(Number(fork[2]), Number(fork[4]));
      forkedAt.set(Number(fork[2]), Number(fork[1]));
    }
    const exec = /^\s*(\S+)\s+(\d+)\/\d+\s+[\d.]+: PERF_RECORD_COMM exec/.exec(line);
    if (exec) execs.set(Number(exec[2]), exec[1]);
  }
  // perf's own child execs the sweep first: the coordinator.
  const coordinator = [...execs.keys()].find((p) => p > 0);
  if (coordinator === undefined) throw new Error("perf recorded no exec of the sweep");
  const workers = new Set([...parent].filter(([p, pp]) => pp === coordinator && execs.get(p) === "node").map(([p]) => p));
  const servers = new Set([...execs].filter(([p, comm]) => comm.startsWith("python") && inSandbox(p)).map(([p]) => p));
  function inSandbox(pid: number): boolean {
    for (let p = parent.get(pid); p !== undefined; p = parent.get(p)) if (execs.get(p) === "bwrap") return true;
    return false;
  }
  const role = (pid: number, tid: number): string => {
    if (pid === coordinator) return "coordinator (Node)";
    if (workers.has(pid)) return tid === pid ? "sweep-worker: main thread" : "sweep-worker: other threads";
    if (servers.has(pid)) return "fork server";
    if (servers.has(parent.get(pid) ?? -1) && !execs.has(pid)) return "Python worker (forked)";
    if (inSandbox(pid) || execs.get(pid) === "bwrap") return "sandbox: bwrap and the rest";
    return "sweep-worker's children (launchers, mounts)";
  };
  // Cells are told apart by their Python workers' forks: the steady window runs from the third to the last.
  const cellStarts = [...forkedAt].filter(([p]) => servers.has(parent.get(p) ?? -1)).map(([, t]) => t).sort((a, b) => a - b);
  if (cellStarts.length < 4) throw new Error(`only ${cellStarts.length} Python workers were forked: no steady window`);
  const [from, to] = [cellStarts[2], cellStarts[cellStarts.length - 1]];
  const cells = cellStarts.length - 3;
  const samples = samplesOf(syms, from, to);
  const perCell = (n: number, seconds: number) => `${((n * seconds) / cells).toFixed(3)} s`;
  const byRole = new Map<string, number>();
  const inKernel = new Map<string, number>();
  /** Kernel samples by cause, and within each by role. */
  const byCause = new Map<string, Map<string, number>>();
  const tidsInBin = new Map<number, Set<number>>();
  let turbofan = 0;
  let gc = 0;
  for (const s of samples) {
    const r = role(s.pid, s.tid);
    byRole.set(r, (byRole.get(r) ?? 0) + 1);
    if (s.kernel !== null) {
      inKernel.set(r, (inKernel.get(r) ?? 0) + 1);
      const roles = byCause.get(s.kernel) ?? new Map<string, number>();
      byCause.set(s.kernel, roles.set(r, (roles.get(r) ?? 0) + 1));
    }
    if (r === "sweep-worker: other threads" && s.sym.includes("compiler::")) turbofan++;
    if (r === "sweep-worker: other threads" && GC_SYMBOL.test(s.sym)) gc++;
    const bin = Math.floor(s.t / BIN_S);
    tidsInBin.set(bin, (tidsInBin.get(bin) ?? new Set()).add(s.tid));
  }
  const beside = new Map<string, number>();
  for (const s of samples) if (tidsInBin.get(Math.floor(s.t / BIN_S))!.size > 1) beside.set(role(s.pid, s.tid), (beside.get(role(s.pid, s.tid)) ?? 0) + 1);
  const lines: Record<string, string> = {
    window: `${cells} cells, ${((to - from) / cells).toFixed(3)} s a cell of wall time (perf's own cost included)`,
    "CPU a cell": perCell(samples.length, 1 / HZ),
    "fork servers": `${servers.size} started in the whole run (${workers.size} sweep-workers)`,
  };
  for (const [r, n] of [...byRole].sort((a, b) => b[1] - a[1])) lines[r] = `${perCell(n, 1 / HZ)} (${perCell(beside.get(r) ?? 0, 1 / HZ)} of it beside another thread, ${perCell(inKernel.get(r) ?? 0, 1 / HZ)} in the kernel)`;
  lines["of which TurboFan"] = `${perCell(turbofan, 1 / HZ)} (the sweep-worker's other threads compiling)`;
  lines["of which GC"] = `${perCell(gc, 1 / HZ)} (the sweep-worker's other threads marking, sweeping, scavenging)`;
  for (const cause of [...KERNEL_CAUSES.map(([c]) => c), "other"]) {
    // Roles with under half a millisecond a cell are left out of the split (not out of the total).
    const roles = [...(byCause.get(cause) ?? [])].sort((a, b) => b[1] - a[1]);
    const shown = roles.filter(([, n]) => n / HZ / cells >= 0.0005);
    const total = roles.reduce((sum, [, n]) => sum + n, 0);
    lines[`kernel: ${cause}`] = `${perCell(total, 1 / HZ)}${shown.length > 0 ? ` (${shown.map(([r, n]) => `${r} ${perCell(n, 1 / HZ)}`).join(", ")})` : ""}`;
  }
  const twoAtOnce = [...tidsInBin.values()].filter((t) => t.size > 1).length;
  lines["two at once"] = `${perCell(twoAtOnce, BIN_S)} a cell of 1 ms bins with two or more of the sweep's threads running, of ${perCell(tidsInBin.size, BIN_S)} busy`;
  const seconds: Record<string, number> = { all: samples.length / HZ / cells };
  for (const [r, n] of byRole) seconds[r] = n / HZ / cells;
  return { lines, seconds };
}
