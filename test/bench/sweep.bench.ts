/**
 * Sweeps (`npm run bench -- sweep`): a grid of examples/agent.py backtests on the default
 * tournament, `--workers 1` against `--workers 2` in cells per minute (goal: at least 1.8× on
 * this 2-core machine), then, when the project venv has ray, the same sweep on a Ray head started
 * here on 127.0.0.1 alone (test/sweep/ray-head.ts; that head alone is stopped after): its overhead
 * per cell against the local pool of 2 (goal: under 0.5 s). When the venv has lightgbm, the same
 * pairs for a sweep of heavier cells (workloads() below). The runs of a sweep must agree byte for
 * byte. Besides each run's wall time, the steady rate is timed from the moment every worker has
 * finished its first cell to the last cell (the progress lines), leaving out what a run pays
 * once: starting workers, building the world, connecting to Ray. Where this
 * process may make a cpuacct cgroup (v1, as root), each local run is made in one of its own, and
 * its whole process tree's CPU time is given (Node, the fork servers and the Python workers in
 * their sandboxes: a sandbox joins its cpu, memory and pids cgroups, not cpuacct), per cell
 * overall and over the steady span, with the share of the machine's cores other
 * processes used over that span (/proc/stat's busy time less the run's own): on a machine shared
 * with other work, wall-time rates and their ratio mean little (`npm run bench -- cell-cpu` splits
 * a cell's CPU, which other work disturbs far less), so the speed-up of the pairs whose two runs
 * both had the machine to themselves is given apart. BENCH_CELLS sets the grid's size (default 24), BENCH_RUNS the pairs (default 7: on the quiet 2-core machine, pairs of 3-pair runs ranged 1.63 to 2.02, so 3 pairs did not settle the ratio); the
 * whole tree's peak RSS is sampled every 100 ms. With CPU times, `bound` is the most two workers
 * could gain on two cores, from the medians: 2 × a cell's wall time at `--workers 1` ÷ its CPU at
 * `--workers 2` (what one worker's cell already takes of the second core, two cannot gain).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startRayHead } from "../sweep/ray-head.js";
import { ensureBuilt, median, report, treeRss } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin/basecamp.js");
const PYTHON = join(root, ".venv/bin/python");
const RAY = join(root, ".venv/bin/ray");
const CELLS = Number(process.env.BENCH_CELLS ?? 24);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CPUACCT = "/sys/fs/cgroup/cpuacct";
/** The CPUs of the Ray head the bench starts. */
const RAY_CPUS = 2;

interface Timed {
  seconds: number;
  /** Seconds per cell over the steady span: from the finish that makes as many cells as workers to the last. */
  steady: number;
  /**
   * CPU seconds of the whole process tree: per cell overall, and per cell over the steady span;
   * and the share of the machine's cores that other processes kept busy over that span (null
   * without a cpuacct cgroup).
   */
  cpu: { perCell: number; steady: number; others: number } | null;
  /** The whole process tree's peak resident set, MB. */
  peakMb: number;
  out: string;
}

/** A cpuacct cgroup of its own for one run, or null where none can be made. */
function cpuGroup(name: string): { procs: string; seconds(): number; remove(): void } | null {
  const dir = join(CPUACCT, `basecamp-bench-${process.pid}-${name}`);
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  return {
    procs: join(dir, "cgroup.procs"),
    seconds: () => Number(readFileSync(join(dir, "cpuacct.usage"), "utf8")) / 1e9,
    remove: () => rmdirSync(dir),
  };
}

/** Clock ticks a second in /proc/stat. */
const TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU seconds the whole machine has spent busy since boot (every process, the kernel's work included), from /proc/stat. */
function machineBusy(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS;
}

/** Other processes' share of the cores (over a run's steady span) under which a run counts as on a quiet machine. */
const QUIET = 0.05;

/** The steady speed-up of each pair whose two runs both had the machine to themselves, and their median. */
function quietPairs(ones: Timed[], twos: Timed[]): string {
  const quiet = ones.flatMap((o, k) => ((o.cpu?.others ?? 1) < QUIET && (twos[k].cpu?.others ?? 1) < QUIET ? [o.steady / twos[k].steady] : []));
  if (quiet.length === 0) return `none (no pair had both runs under ${QUIET * 100}% of others' CPU)`;
  return `${quiet.length} of ${ones.length} under ${QUIET * 100}% of others' CPU: ${quiet.map((r) => r.toFixed(2)).join(", ")}; the median of their ratios ${median(quiet).toFixed(2)}×`;
}

/** A sweep the bench times: `cells` cells from `sweep` (its file's JSON), with `flags` added to every run. */
interface Workload {
  title: string;
  sweep: object;
  cells: number;
  flags: string[];
}

/**
 * The workloads: examples/agent.py's grid (cells of about 0.1 s, each mostly the backtest's
 * pipelined walk) and, when the project venv has lightgbm, examples/lightgbm_agent.py on one
 * thread (`n_jobs: 1`) over LightGBM's own seed (cells of about 1 s, each mostly the model's fit,
 * all of the same cost); BENCH_LIGHTGBM_CELLS sets its size (default 12, 0 to leave it out).
 */
function workloads(): Workload[] {
  const alphas = Array.from({ length: CELLS }, (_, i) => 10 ** (i / 2 - 1));
  const agent: Workload = {
    title: `${CELLS} backtests of examples/agent.py on default-tournament`,
    sweep: { base: { strategy: join(root, "examples/agent.py"), scenario: "default-tournament" }, axes: { params: { alpha: alphas } } },
    cells: CELLS,
    flags: [],
  };
  const cells = Number(process.env.BENCH_LIGHTGBM_CELLS ?? 12);
  if (cells === 0 || !existsSync(PYTHON) || spawnSync(PYTHON, ["-c", "import lightgbm"]).status !== 0) return [agent];
  const seeds = Array.from({ length: cells }, (_, i) => i + 1);
  const lightgbm: Workload = {
    title: `${cells} backtests of examples/lightgbm_agent.py (n_jobs 1, LightGBM's seed varied) on default-tournament, the project venv`,
    sweep: { base: { strategy: join(root, "examples/lightgbm_agent.py"), scenario: "default-tournament", params: { n_jobs: 1 } }, axes: { params: { seed: seeds } } },
    cells,
    flags: ["--python", PYTHON],
  };
  return [agent, lightgbm];
}

export async function run(): Promise<void> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), "basecamp-sweep-bench-"));
  try {
    for (const [k, workload] of workloads().entries()) await measure(workload, join(dir, String(k)), k === 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Times one workload in RUNS alternating pairs, and (`withRay`, when the venv has ray) once on a Ray head. */
async function measure(workload: Workload, dir: string, withRay: boolean): Promise<void> {
  mkdirSync(dir);
  const cells = workload.cells;
  // Every run's steady span needs a cell after each of its (at most 2) workers' first.
  if (!(cells > 2)) throw new Error(`${workload.title}: at least 3 cells are needed for a steady rate (BENCH_CELLS, BENCH_LIGHTGBM_CELLS)`);
  const grid = join(dir, "grid.json");
  writeFileSync(grid, JSON.stringify(workload.sweep));
  const sweep = (name: string, ...flags: string[]): Promise<Timed> =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const done: number[] = [];
      const used: number[] = [];
      const busy: number[] = [];
      let out = "";
      const group = flags[0] === "--workers" ? cpuGroup(name) : null;
      // The pool starts a worker per cell at most (local-pool.ts).
      const parallel = Math.min(flags[0] === "--workers" ? Number(flags[1]) : RAY_CPUS, cells);
      const args = [BIN, "sweep", grid, "--out", join(dir, `${name}.db`), "--json", ...workload.flags, ...flags];
      // In the group from its first instruction: a shell joins it, then becomes the sweep.
      const [file, argv] = group ? ["/bin/sh", ["-c", `echo $$ > ${group.procs} && exec "$0" "$@"`, process.execPath, ...args]] : [process.execPath, args];
      const child = spawn(file, argv, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      const rss = treeRss(child.pid!, 100);
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        const now = performance.now();
        const cpu = group?.seconds() ?? 0;
        const machine = machineBusy();
        for (let k = s.match(/^sweep: \d+ of \d+ cells done/gm)?.length ?? 0; k > 0; k--) {
          done.push(now);
          used.push(cpu);
          busy.push(machine);
        }
      });
      child.on("error", (e) => reject((rss.stop(), e)));
      child.on("close", (code) => {
        const total = group?.seconds();
        const peakMb = rss.stop();
        group?.remove();
        if (code !== 0 || done.length !== cells) return reject(new Error(`sweep ${flags.join(" ")}: exit ${code}, ${done.length} cells`));
        // The steady span starts at the finish that makes as many cells as there are workers (each
        // worker's first, when first cells take about as long): from then on each finish is one
        // more cell's work. Timed from the first finish instead, workers whose first cells end
        // together (cells of one cost) put a cell more in the count than in the span: the rate
        // overstated by up to 1/22 on 24 cells at two workers, 1/10 on 12.
        const [first, last] = [parallel - 1, cells - 1];
        const ours = used[last] - used[first];
        const others = Math.max(0, busy[last] - busy[first] - ours) / (((done[last] - done[first]) / 1000) * availableParallelism());
        const cpu = total === undefined ? null : { perCell: total / cells, steady: ours / (last - first), others };
        resolve({ seconds: (performance.now() - start) / 1000, steady: (done[last] - done[first]) / 1000 / (last - first), cpu, peakMb, out });
      });
    });
  // Pairs, alternating which goes first, so a drift in the machine's load falls on both sides.
  const ones: Timed[] = [];
  const twos: Timed[] = [];
  for (let k = 0; k < RUNS; k++) {
    const order = k % 2 === 0 ? [1, 2] : [2, 1];
    for (const w of order) (w === 1 ? ones : twos).push(await sweep(`w${w}-${k}`, "--workers", String(w)));
  }
  const mid = (runs: Timed[], of: (t: Timed) => number | undefined) => median(runs.map(of).filter((x): x is number => x !== undefined));
  const summary = (runs: Timed[]) => ({
    seconds: mid(runs, (t) => t.seconds),
    steady: mid(runs, (t) => t.steady),
    cpu: runs[0].cpu ? { perCell: mid(runs, (t) => t.cpu?.perCell), steady: mid(runs, (t) => t.cpu?.steady) } : null,
  });
  const one = summary(ones);
  const two = summary(twos);
  const perMinute = (s: number) => ((cells / s) * 60).toFixed(1);
  // Cores busy once running: the median CPU over the median wall a cell. What one worker already takes of the second core is what two workers cannot gain.
  const cpu = (t: ReturnType<typeof summary>) =>
    t.cpu ? `; CPU (whole tree) ${t.cpu.perCell.toFixed(2)} s per cell, ${t.cpu.steady.toFixed(2)} s steady (${(t.cpu.steady / t.steady).toFixed(2)} cores busy)` : "";
  const steady = (t: ReturnType<typeof summary>) => `${(60 / t.steady).toFixed(1)} cells/min steady (${t.steady.toFixed(2)} s per cell)`;
  const pairs = ones.map((o, k) => (o.steady / twos[k].steady).toFixed(2)).join(", ");
  const lines: Record<string, string> = {
    workload: `${cells} cells, medians of ${RUNS} alternating pairs`,
    "workers 1": `${one.seconds.toFixed(1)} s for ${cells} cells, ${perMinute(one.seconds)} cells/min; ${steady(one)}${cpu(one)}`,
    "workers 2": `${two.seconds.toFixed(1)} s, ${perMinute(two.seconds)} cells/min: ${(one.seconds / two.seconds).toFixed(2)}×; ${steady(two)}: ${(one.steady / two.steady).toFixed(2)}× (goal ≥ 1.8×; each pair's: ${pairs})${cpu(two)}`,
    "peak RSS": `${(Math.max(...[...ones, ...twos].map((t) => t.peakMb))).toFixed(0)} MB (whole tree, largest of the runs)`,
    load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
    ...(ones[0].cpu && {
      "others' CPU": `${[ones, twos].map((runs, i) => `w${i + 1} runs ${runs.map((t) => `${((t.cpu?.others ?? 0) * 100).toFixed(0)}%`).join(", ")}`).join("; ")} of the machine's cores, used by other processes (this bench included, idle) over each run's steady span: wall-time rates compare only near 0%`,
      "quiet pairs": quietPairs(ones, twos),
    }),
    ...(two.cpu && {
      // Two workers keep at most both cores busy, so they finish a cell at best every (CPU a cell at --workers 2) ÷ 2 seconds;
      // the cores a cell keeps busy at --workers 1 are on the workers 1 line.
      bound: `${((2 * one.steady) / two.cpu.steady).toFixed(2)}× at most (two workers, two cores): 2 × ${one.steady.toFixed(3)} s a cell at --workers 1 ÷ ${two.cpu.steady.toFixed(3)} s of CPU a cell at --workers 2`,
    }),
    identical: String([...ones, ...twos].every((t) => t.out === ones[0].out)),
  };
  const hasRay = () => existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import ray"]).status === 0;
  if (withRay && hasRay()) {
    const head = await startRayHead(RAY, RAY_CPUS);
    try {
      const ray = await sweep("ray", "--ray", head.address, "--ray-python", PYTHON);
      lines.ray = `${ray.seconds.toFixed(1)} s: ${((ray.seconds - two.seconds) / cells).toFixed(2)} s per cell over the local pool of 2, connecting included; steady ${(ray.steady - two.steady).toFixed(2)} s per cell (goal < 0.5 s)`;
      lines["ray identical"] = String(ray.out === ones[0].out);
    } finally {
      head.stop();
    }
  } else if (withRay) lines.ray = "skipped: the project venv has no ray (.venv/bin/pip install ray)";
  report(`Sweep: ${workload.title}`, lines);
}
