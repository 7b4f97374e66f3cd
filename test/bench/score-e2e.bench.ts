/**
 * `basecamp score FILE --core … --json` end to end against the numpy/pandas/scipy reference
 * (`reference_score.py`, same definitions, reading the CSV: there is no pyarrow here), on W1-shaped
 * files of ¼, ½, 1, 2 and 4 × W1 (600 expeds × 5,000 rows, 10 core features; `score-files.ts`,
 * cached under data/cache/score-e2e/). Each is a child process under `/usr/bin/time -v`: ours is
 * the built CLI, `node dist/src/cli.js score …` (the bench runs `npm run build` first when dist/
 * is not current), the reference is `/usr/bin/python3 reference_score.py FILE.csv`.
 * Runs are paired and alternate (parquet, CSV, reference); medians of RUNS, with the spread.
 * Targets at 1×W1: wall ≤ ⅓ of the reference's and peak RSS ≤ 600 MB; at 2× and 4× time grows
 * ≤ 2.1× per doubling and RSS stays under 600 MB. Every run of ours must print the same report,
 * parquet and CSV alike; the largest difference from the reference's terms is printed.
 *
 * SCORE_E2E_SCALES=1,2 picks scales; SCORE_E2E_RUNS=3 the runs per scale.
 */
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { EXPEDS } from "./w1-data.js";
import { CORE, scoreFiles } from "./score-files.js";
import { ensureBuilt } from "./measure.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCALES = (process.env.SCORE_E2E_SCALES ?? "0.25,0.5,1,2,4").split(",").map(Number);
const RUNS = Number(process.env.SCORE_E2E_RUNS ?? 3);

interface Run {
  wall: number;
  cpu: number;
  rssMb: number;
  stdout: string;
}

function timed(command: string, args: string[]): Run {
  const start = performance.now();
  const child = spawnSync("/usr/bin/time", ["-v", command, ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = (performance.now() - start) / 1000;
  if (child.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${child.status}): ${child.stderr.slice(-2000)}`);
  const field = (name: string) => Number(new RegExp(`${name}: ([0-9.]+)`).exec(child.stderr)?.[1]);
  return { wall, cpu: field("User time \\(seconds\\)") + field("System time \\(seconds\\)"), rssMb: field("Maximum resident set size \\(kbytes\\)") / 1024, stdout: child.stdout };
}

const CLI = "dist/src/cli.js";
const ours = (file: string) => timed(process.execPath, [CLI, "score", file, "--core", CORE.join(","), "--json"]);

const reference = (csv: string) => timed("/usr/bin/python3", ["test/bench/reference_score.py", csv, "--core", CORE.join(",")]);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** "median (min–max)" of one measure over the runs. */
function spread(runs: Run[], key: "wall" | "cpu" | "rssMb", digits: number): string {
  const xs = runs.map((r) => r[key]);
  return `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
}

/** Largest |difference| between two reports' per-exped terms (same expeds in the same order). */
function largestDifference(a: string, b: string): number {
  const [x, y] = [JSON.parse(a), JSON.parse(b)] as { expeds: Record<string, number | null>[] }[];
  if (x.expeds.length !== y.expeds.length) return Infinity;
  let worst = 0;
  x.expeds.forEach((e, i) => {
    for (const k of ["corr", "aimc", "ncorr"]) worst = Math.max(worst, Math.abs((e[k] ?? 0) - (y.expeds[i][k] ?? 0)));
  });
  return worst;
}

export async function run(): Promise<void> {
  ensureBuilt();
  const startUp = Array.from({ length: RUNS }, () => timed(process.execPath, [CLI, "score", "--help"]));
  console.log(`\nbasecamp score end to end (node ${CLI} score FILE --core feature_0,…,feature_9 --json) vs reference_score.py (${RUNS} paired runs per row; median (min–max))`);
  console.log(`  CLI start-up alone (node ${CLI} score --help): wall ${spread(startUp, "wall", 2)} s, peak RSS ${spread(startUp, "rssMb", 0)} MB`);
  console.log(["rows", "input", "wall s", "CPU s", "peak RSS MB", "÷ reference wall", "× per doubling"].join(" | "));
  const previous: Record<string, { wall: number; scale: number }> = {};
  for (const scale of SCALES) {
    const expeds = Math.round(EXPEDS * scale);
    const files = await scoreFiles(expeds);
    const runs = { parquet: [] as Run[], csv: [] as Run[], reference: [] as Run[] };
    for (let i = 0; i < RUNS; i++) {
      runs.parquet.push(ours(files.parquet));
      runs.csv.push(ours(files.csv));
      runs.reference.push(reference(files.csv));
    }
    const refWall = median(runs.reference.map((r) => r.wall));
    const diff = largestDifference(runs.csv[0].stdout, runs.reference[0].stdout);
    if ([...runs.parquet, ...runs.csv].some((r) => r.stdout !== runs.parquet[0].stdout)) console.log("  !! our reports differ between runs or between parquet and CSV");
    for (const [input, rs] of Object.entries(runs)) {
      const wall = median(rs.map((r) => r.wall));
      const before = previous[input];
      const growth = before ? `${((wall / before.wall) ** (1 / Math.log2(scale / before.scale))).toFixed(2)}×` : "–";
      previous[input] = { wall, scale };
      const ratio = input === "reference" ? "1" : (wall / refWall).toFixed(3);
      console.log([`${((expeds * 5000) / 1e6).toFixed(2)}M (${scale}×W1)`, input, spread(rs, "wall", 2), spread(rs, "cpu", 2), spread(rs, "rssMb", 0), ratio, growth].join(" | "));
    }
    console.log(`  largest |difference| of a per-exped term, ours vs reference: ${diff.toExponential(1)}`);
  }
}
