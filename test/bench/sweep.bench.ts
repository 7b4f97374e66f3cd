/**
 * Sweeps (`npm run bench -- sweep`): a grid of examples/agent.py backtests on the default
 * tournament, `--workers 1` against `--workers 2` in cells per minute (goal: at least 1.8× on
 * this 2-core machine), then, when the project venv has ray, the same sweep on a Ray head started
 * here on 127.0.0.1 alone (test/sweep/ray-head.ts; that head alone is stopped after): its overhead
 * per cell against the local pool of 2 (goal: under 0.5 s). The runs must agree byte for byte. Besides each run's wall time, the
 * steady rate is timed from the first finished cell to the last (the progress lines), leaving
 * out what a run pays once: starting workers, building the world, connecting to Ray. BENCH_CELLS
 * sets the grid's size (default 12).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startRayHead } from "../sweep/ray-head.js";
import { report } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin/basecamp.js");
const PYTHON = join(root, ".venv/bin/python");
const RAY = join(root, ".venv/bin/ray");
const CELLS = Number(process.env.BENCH_CELLS ?? 12);

interface Timed {
  seconds: number;
  /** Seconds per cell from the first finished cell to the last. */
  steady: number;
  out: string;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "basecamp-sweep-bench-"));
  const grid = join(dir, "grid.json");
  const alphas = Array.from({ length: CELLS }, (_, i) => 10 ** (i / 2 - 1));
  writeFileSync(grid, JSON.stringify({ base: { strategy: join(root, "examples/agent.py"), scenario: "default-tournament" }, axes: { params: { alpha: alphas } } }));
  const sweep = (name: string, ...flags: string[]): Promise<Timed> =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const done: number[] = [];
      let out = "";
      const child = spawn(process.execPath, [BIN, "sweep", grid, "--out", join(dir, `${name}.db`), "--json", ...flags], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        const now = performance.now();
        for (let k = s.match(/^sweep: \d+ of \d+ cells done/gm)?.length ?? 0; k > 0; k--) done.push(now);
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0 || done.length !== CELLS) return reject(new Error(`sweep ${flags.join(" ")}: exit ${code}, ${done.length} cells`));
        resolve({ seconds: (performance.now() - start) / 1000, steady: (done[CELLS - 1] - done[0]) / 1000 / (CELLS - 1), out });
      });
    });
  try {
    const one = await sweep("one", "--workers", "1");
    const two = await sweep("two", "--workers", "2");
    const perMinute = (s: number) => ((CELLS / s) * 60).toFixed(1);
    const steady = (t: Timed) => `${(60 / t.steady).toFixed(1)} cells/min steady`;
    const lines: Record<string, string> = {
      "workers 1": `${one.seconds.toFixed(1)} s for ${CELLS} cells, ${perMinute(one.seconds)} cells/min; ${steady(one)}`,
      "workers 2": `${two.seconds.toFixed(1)} s, ${perMinute(two.seconds)} cells/min: ${(one.seconds / two.seconds).toFixed(2)}×; ${steady(two)}: ${(one.steady / two.steady).toFixed(2)}× (goal ≥ 1.8×)`,
      identical: String(one.out === two.out),
    };
    if (existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import ray"]).status === 0) {
      const head = await startRayHead(RAY, 2);
      try {
        const ray = await sweep("ray", "--ray", head.address, "--ray-python", PYTHON);
        lines.ray = `${ray.seconds.toFixed(1)} s: ${((ray.seconds - two.seconds) / CELLS).toFixed(2)} s per cell over the local pool of 2, connecting included; steady ${(ray.steady - two.steady).toFixed(2)} s per cell (goal < 0.5 s)`;
        lines["ray identical"] = String(ray.out === one.out);
      } finally {
        head.stop();
      }
    } else lines.ray = "skipped: the project venv has no ray (.venv/bin/pip install ray)";
    report(`Sweep: ${CELLS} backtests of examples/agent.py on default-tournament`, lines);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
