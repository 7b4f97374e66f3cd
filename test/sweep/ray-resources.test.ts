import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basecamp, errorLines } from "../helpers/cli.js";
import { requires } from "../helpers/requires.js";
import type { RayHead } from "./ray-head.js";
import { useRayHead } from "./ray-head-hook.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const VENV_PYTHON = resolve(".venv/bin/python");
const DRIVER_DIR = fileURLToPath(new URL("../../sim/sweep", import.meta.url));
const MIB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "basecamp-ray-resources-"));
const { describe: withRay } = requires("ray");

/** 3 cells: the built-in ridge on 3 seeds of the tiny scenario. */
const SWEEP = join(dir, "seeds.json");

beforeAll(() => {
  writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
  writeFileSync(SWEEP, JSON.stringify({ base: { strategy: "ridge", scenario: "tiny.json" }, axes: { seeds: [1, 2, 3] } }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How many cells a store holds. */
const storedCells = (db: string) => {
  const store = new Database(db, { readonly: true });
  try {
    return (store.prepare("SELECT COUNT(*) AS n FROM cells").get() as { n: number }).n;
  } finally {
    store.close();
  }
};

describe("--workers", () => {
  it("is refused above 4 × the cores when parsed, naming the flag and the bound, before any work", async () => {
    const cores = availableParallelism();
    const over = await basecamp(["sweep", SWEEP, "--workers", String(4 * cores + 1)]);
    expect(over.status).toBe(1);
    expect(errorLines(over)).toEqual([`basecamp: --workers ${4 * cores + 1}: at most ${4 * cores} on this machine (4 × its ${cores} core${cores === 1 ? "" : "s"})`]);
    expect(existsSync(join(dir, "seeds.sweep.db"))).toBe(false);
    // The bound itself passes: the sweep goes on to its cells (here, a --cell it does not have).
    const at = await basecamp(["sweep", SWEEP, "--workers", String(4 * cores), "--cell", "9"]);
    expect(errorLines(at)).toEqual(["basecamp: --cell: the sweep has cells 0 to 2, not 9"]);
  }, 60_000);
});

withRay("the Ray driver's check of a request against the nodes", () => {
  /** What ray_driver.unmeetable says of each case: [cpus, MiB, each alive node's resources]. */
  const verdicts = (cases: [number, number, Record<string, number>[]][]) => {
    const code = "import json, sys; from ray_driver import unmeetable; print(json.dumps([unmeetable(c, m, nodes, 'head:6379') for c, m, nodes in json.load(sys.stdin)]))";
    const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" }; // no __pycache__ left in the package
    const run = spawnSync(VENV_PYTHON, ["-c", code], { cwd: DRIVER_DIR, env, input: JSON.stringify(cases), encoding: "utf8" });
    expect(run.stderr).toBe("");
    return JSON.parse(run.stdout) as (string | null)[];
  };

  it("holds it against each node, not the cluster's sum: a task runs on one node", () => {
    const node = (cpus: number, mib: number) => ({ CPU: cpus, memory: mib * MIB, "node:10.0.0.1": 1 });
    const twoSmall = [node(2, 1000), node(2, 1000)];
    const lopsided = [node(8, 100), node(1, 4000)];
    const noCpus = [{ memory: 1000 * MIB }];
    expect(verdicts([[2, 1000, twoSmall], [3, 0, twoSmall], [1, 1500, twoSmall], [4, 1000, lopsided], [2, 100, lopsided], [1, 0, noCpus]])).toEqual([
      null,
      "--ray-cpus 3: no node of the Ray cluster at head:6379 has 3 CPUs (the largest has 2)",
      "--ray-memory 1500: no node of the Ray cluster at head:6379 has 1500 MiB (the largest has 1000 MiB)",
      "--ray-cpus 4 --ray-memory 1000: no node of the Ray cluster at head:6379 has both 4 CPUs and 1000 MiB",
      null,
      "--ray-cpus 1: no node of the Ray cluster at head:6379 has 1 CPU (the largest has 0)",
    ]);
  }, 60_000);
});

withRay("--ray-cpus and --ray-memory on a Ray head of 2 CPUs the test starts on 127.0.0.1 (and stops, alone)", () => {
  const head = useRayHead(2);

  const sweep = (db: string, flags: string[]) => basecamp(["sweep", SWEEP, "--ray", head().address, "--ray-python", VENV_PYTHON, "--out", join(dir, db), ...flags]);

  it("a request no node can meet fails the sweep at once, naming the flag, with no cell recorded", async () => {
    const cpus = await sweep("cpus.db", ["--ray-cpus", "4"]);
    expect(cpus.status).toBe(1);
    expect(errorLines(cpus)).toEqual([`basecamp: --ray-cpus 4: no node of the Ray cluster at ${head().address} has 4 CPUs (the largest has 2)`]);
    expect(storedCells(join(dir, "cpus.db"))).toBe(0);
    const mib = Math.ceil(totalmem() / MIB) + 1;
    const memory = await sweep("memory.db", ["--ray-memory", String(mib)]);
    expect(memory.status).toBe(1);
    expect(errorLines(memory)).toEqual([expect.stringMatching(new RegExp(`^basecamp: --ray-memory ${mib}: no node of the Ray cluster at ${head().address} has ${mib} MiB \\(the largest has \\d+ MiB\\)$`))]);
    expect(storedCells(join(dir, "memory.db"))).toBe(0);
  }, 120_000);

  it("each cell's task gets what the flags ask (as Ray's worker logs say), and without them sweep-command's defaults", async () => {
    const logs = workerLogs(head());
    const asked = await sweep("asked.db", ["--ray-cpus", "2", "--ray-memory", "64"]);
    expect(asked.status).toBe(0);
    expect(logs.newLines().sort()).toEqual([0, 1, 2].map((i) => `basecamp sweep: cell ${i}, a Ray task given CPU 2, memory 64 MiB`));
    const defaults = await sweep("defaults.db", []);
    expect(defaults.status).toBe(0);
    expect(logs.newLines().sort()).toEqual([0, 1, 2].map((i) => `basecamp sweep: cell ${i}, a Ray task given CPU 1, memory 0 MiB`));
  }, 200_000);
});

/**
 * The head's Ray worker logs (in the GCS's --log_dir), read from where the last look left each:
 * `newLines` gives the cells' lines written since, whichever worker (a new one, or one started
 * before the sweep) wrote them.
 */
function workerLogs(head: RayHead): { newLines(): string[] } {
  const gcs = head.processes().find((p) => p.command === "gcs_server");
  const args = readFileSync(`/proc/${gcs?.pid}/cmdline`, "utf8").split("\0");
  const logDir = args.find((a) => a.startsWith("--log_dir="))!.slice("--log_dir=".length);
  const seen = new Map<string, number>();
  const look = () => {
    const lines: string[] = [];
    for (const name of readdirSync(logDir).filter((f) => /^worker-.*\.err$/.test(f))) {
      const path = join(logDir, name);
      const text = readFileSync(path);
      lines.push(...text.subarray(seen.get(path) ?? 0).toString("utf8").split("\n"));
      seen.set(path, text.length);
    }
    return lines.filter((l) => l.startsWith("basecamp sweep: cell "));
  };
  look();
  return { newLines: look };
}
