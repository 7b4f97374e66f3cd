/**
 * Real size: `basecamp backtest` against the plain pandas walk-forward a user would write
 * (test/bench/plain_walk.py: pd.read_parquet, the same fit and predict, CORR and AIMC in numpy), on
 * a seeded dataset directory of the real event's size and shape (test/bench/real_size_data.py,
 * cached under data/cache/real-size/): train 468,236 rows × 178 int8 features and 15 float32
 * targets over 6,522 expeds, validation 23,886 rows over 261 expeds (249 walked, 12 held out).
 * Strategies: examples/agent.py, examples/lightgbm_agent.py and a model file pickled by the
 * interpreter (test/bench/real_size_model.py); then examples/agent.py at 4× the rows × 700 features
 * (1,872,944 train rows, a 0.7 GB train.parquet). Each shape's report gives its workload and what
 * its generation cost (wall, peak RSS), recorded in the cache beside the data when the bench made it.
 * Each pair runs alternately, 3 times: medians of wall time and of the whole process tree's peak
 * RSS (the sum over the tree, sampled every 50 ms), their ratios, and the largest per-exped
 * difference of CORR and AIMC. Goals: differences ≤ 1e-9, wall ≤ 1.3×, peak RSS ≤ 1.5×.
 *
 * The interpreter is BASECAMP_PYTHON, else the project venv (.venv/bin/python); both sides run it
 * (VIRTUAL_ENV is set for the backtest, which runs it sandboxed where the sandbox takes a venv).
 * REAL_SIZE_SHAPES=1x178 (or 4x700) limits the shapes; REAL_SIZE_KINDS=strategy (or model) the
 * strategies to the files of that kind; REAL_SIZE_RUNS the pairs per case.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt, median, report, treeRss } from "./measure.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const here = (name: string) => join(root, "test/bench", name);
const python = process.env.BASECAMP_PYTHON ?? join(root, ".venv/bin/python");
const RUNS = Number(process.env.REAL_SIZE_RUNS ?? 3);
const HELD = 12;
const SEED = 1;
/** Train rows at scale 1 (real_size_data.py's TRAIN_ROWS). */
const TRAIN_ROWS = 468_236;

interface Shape {
  scale: number;
  features: number;
  strategies: Strategy[];
}
type Strategy = { name: string; file: (dir: string) => string; kind: "strategy" | "model" };

const agent: Strategy = { name: "examples/agent.py", file: () => join(root, "examples/agent.py"), kind: "strategy" };
const lightgbm: Strategy = { name: "examples/lightgbm_agent.py", file: () => join(root, "examples/lightgbm_agent.py"), kind: "strategy" };
const modelFile: Strategy = { name: "a model file (ridge, pickled in the venv)", file: (dir) => join(dir, "model.pkl"), kind: "model" };

const SHAPES: Shape[] = [
  { scale: 1, features: 178, strategies: [agent, lightgbm, modelFile] },
  { scale: 4, features: 700, strategies: [agent] },
];

interface Run {
  wallMs: number;
  peakMb: number;
  stdout: string;
}

/** Runs a command to its end, sampling the RSS of it and all its descendants; rejects on a non-zero exit. */
function measured(file: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(file, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr = (stderr + s).slice(-4000)));
    const rss = treeRss(child.pid!);
    child.on("error", (e) => reject((rss.stop(), e)));
    child.on("close", (status) => {
      const peakMb = rss.stop();
      const wallMs = performance.now() - start;
      if (status !== 0) reject(new Error(`${file} ${args.join(" ")} exited ${status}: ${stderr}`));
      else resolve({ wallMs, peakMb, stdout });
    });
  });
}

/** What making a shape's dataset cost, as recorded beside it when the bench made it. */
const GENERATION = "generation.json";

/** The shape's dataset directory, its scenario and model file, made once (seeded) and cached; the generator's wall and peak RSS are recorded beside the data. */
async function prepared(shape: Shape): Promise<{ dir: string; scenario: string }> {
  const dir = join(root, "data/cache/real-size", `${shape.scale}x${shape.features}-seed${SEED}`);
  if (!existsSync(join(dir, "live.parquet"))) {
    console.log(`generating ${dir} ...`);
    const made = await measured(python, [here("real_size_data.py"), dir, "--scale", String(shape.scale), "--features", String(shape.features), "--seed", String(SEED)]);
    writeFileSync(join(dir, GENERATION), JSON.stringify({ wall_s: made.wallMs / 1000, peak_rss_mb: made.peakMb }));
  }
  if (shape.strategies.includes(modelFile) && !existsSync(modelFile.file(dir))) await measured(python, [here("real_size_model.py"), dir, modelFile.file(dir)]);
  const scenario = join(dir, "..", `${shape.scale}x${shape.features}-scenario.json`);
  mkdirSync(dirname(scenario), { recursive: true });
  writeFileSync(
    scenario,
    JSON.stringify({
      name: "real-size",
      seed: SEED,
      dataset: { dir },
      calendar: { start: "2026-01-05", n_rounds: HELD },
      agents: [{ name: "alice", key: "key-alice-0001", strategy: "ridge" }],
    }),
  );
  return { dir, scenario };
}

/** The dataset's size and what its generation cost (when the bench made it). */
function workload(dir: string, shape: Shape): Record<string, string> {
  const train = statSync(join(dir, "train.parquet")).size / 1e6;
  const record = join(dir, GENERATION);
  const made = existsSync(record) ? (JSON.parse(readFileSync(record, "utf8")) as { wall_s: number; peak_rss_mb: number }) : null;
  return {
    workload: `train ${(TRAIN_ROWS * shape.scale).toLocaleString("en")} rows × ${shape.features} int8 features (train.parquet ${train.toFixed(0)} MB)`,
    generation: made ? `${made.wall_s.toFixed(1)} s, ${made.peak_rss_mb.toFixed(0)} MB peak RSS (test/bench/real_size_data.py)` : `not recorded: ${dir} was made before the bench recorded it (remove it to measure)`,
  };
}

type Scores = Map<string, { corr: number | null; aimc: number | null }>;

function basecampScores(stdout: string): Scores {
  const out = JSON.parse(stdout) as { expeds: { exped: string; corr: number | null; aimc: number | null }[] };
  return new Map(out.expeds.map((e) => [e.exped, e]));
}

/** The largest |difference| of CORR and AIMC over the expeds, or why they cannot be compared. */
function largestDifference(a: Scores, b: Scores): string {
  if (a.size !== b.size) return `${a.size} expeds against ${b.size}`;
  let worst = 0;
  for (const [exped, x] of a) {
    const y = b.get(exped);
    if (!y || x.corr === null || x.aimc === null || y.corr === null || y.aimc === null) return `exped ${exped} not scored on both sides`;
    worst = Math.max(worst, Math.abs(x.corr - y.corr), Math.abs(x.aimc - y.aimc));
  }
  return worst.toExponential(2);
}

export async function run(): Promise<void> {
  ensureBuilt();
  const only = process.env.REAL_SIZE_SHAPES?.split(",");
  const bin = join(root, "bin/basecamp.js");
  for (const shape of SHAPES.filter((s) => !only || only.includes(`${s.scale}x${s.features}`))) {
    const { dir, scenario } = await prepared(shape);
    const kinds = process.env.REAL_SIZE_KINDS?.split(",");
    for (const strategy of shape.strategies.filter((s) => !kinds || kinds.includes(s.kind))) {
      const file = strategy.file(dir);
      const ours: Run[] = [];
      const plain: Run[] = [];
      const venv = { BASECAMP_PYTHON: python, VIRTUAL_ENV: dirname(dirname(python)) };
      for (let i = 0; i < RUNS; i++) {
        ours.push(await measured(process.execPath, [bin, "backtest", file, "--scenario", scenario, "--json"], venv));
        plain.push(await measured(python, [here("plain_walk.py"), dir, strategy.kind === "model" ? "--model" : "--strategy", file, "--held", String(HELD)]));
      }
      const wall = median(ours.map((r) => r.wallMs)) / median(plain.map((r) => r.wallMs));
      const rss = median(ours.map((r) => r.peakMb)) / median(plain.map((r) => r.peakMb));
      const entered = (JSON.parse(ours[0].stdout) as { summary: { entered: number; expeds: number } }).summary;
      report(`real size ${shape.scale}× rows × ${shape.features} features: ${strategy.name}`, {
        ...workload(dir, shape),
        "basecamp wall": `${(median(ours.map((r) => r.wallMs)) / 1000).toFixed(2)} s median (${ours.map((r) => (r.wallMs / 1000).toFixed(2)).join(" ")})`,
        "plain wall": `${(median(plain.map((r) => r.wallMs)) / 1000).toFixed(2)} s median (${plain.map((r) => (r.wallMs / 1000).toFixed(2)).join(" ")})`,
        "wall ratio": `${wall.toFixed(2)}× (goal ≤ 1.3×)`,
        "basecamp RSS": `${median(ours.map((r) => r.peakMb)).toFixed(0)} MB whole-tree peak, median (${ours.map((r) => r.peakMb.toFixed(0)).join(" ")})`,
        "plain RSS": `${median(plain.map((r) => r.peakMb)).toFixed(0)} MB (${plain.map((r) => r.peakMb.toFixed(0)).join(" ")})`,
        "RSS ratio": `${rss.toFixed(2)}× (goal ≤ 1.5×)`,
        entered: `${entered.entered} of ${entered.expeds} expeds`,
        "max |Δ|": `${largestDifference(basecampScores(ours[0].stdout), basecampScores(plain[0].stdout))} per-exped CORR/AIMC (goal ≤ 1e-9)`,
      });
    }
  }
}
