import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SweepReport } from "../../src/report/sweep-report.js";
import { basecamp } from "../helpers/cli.js";
import { descendants, stillRunning, type Proc } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";
import { HOLDER, heldFit, LEAVER, TINY_SCENARIO } from "./sweep-fixtures.js";
import type { RayHead } from "./ray-head.js";
import { useRayHead } from "./ray-head-hook.js";

const BIN = fileURLToPath(new URL("../../bin/basecamp.js", import.meta.url));
const VENV_PYTHON = resolve(".venv/bin/python");
const dir = mkdtempSync(join(tmpdir(), "basecamp-sweep-"));
const { describe: withPython } = requires("python");
const { describe: withRay } = requires("ray");

/** 24 cells: examples/agent.py over 12 ridge penalties × 2 seeds of the default tournament. */
const GRID = {
  base: { strategy: resolve("examples/agent.py"), scenario: "default-tournament" },
  axes: { params: { alpha: [0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 30000] }, seeds: [1, 2] },
};

/** A strategy file that fails as it loads: a cell that runs and fails (a sweep checks that its files exist before any cell runs). */
const RAISES = 'raise ValueError("not yet")\n';

/** The pids of a Ray head's worker processes. */
const rayWorkers = (head: RayHead) => head.processes().flatMap((p) => (p.command.startsWith("ray::") ? [p.pid] : []));

const sweepFile = (name: string, sweep: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(sweep));
  return path;
};

/** Every stored cell's outcome, as the store holds its bytes. */
const storedOutcomes = (db: string) => {
  const store = new Database(db, { readonly: true });
  try {
    return store.prepare("SELECT idx, status, outcome FROM cells ORDER BY idx").all() as { idx: number; status: string; outcome: string }[];
  } finally {
    store.close();
  }
};

/**
 * Runs the grid with `flags` into the store `name` and sends it `signal` once its first cell is done
 * (waiting on the progress line, not on time): its exit code, stderr, and the processes it had
 * running then.
 */
async function interrupted(name: string, flags: string[], signal: NodeJS.Signals = "SIGINT") {
  const db = join(dir, name);
  const child = spawn(process.execPath, [BIN, "sweep", join(dir, "grid.json"), ...flags, "--out", db], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const procs = await new Promise<Proc[]>((done) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      stderr += `${line}\n`;
      if (/^sweep: 1 of 24 cells done/.test(line)) {
        const running = descendants(child.pid as number);
        child.kill(signal);
        done(running);
      }
    });
  });
  const [code] = (await once(child, "close")) as [number];
  return { code, stderr, procs, db };
}

beforeAll(() => writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO)));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

withPython("basecamp sweep", () => {
  const grid = sweepFile("grid.json", GRID);
  let local: { json: string; outcomes: ReturnType<typeof storedOutcomes> };

  it("--workers 1 runs every cell and ranks them, with v1_designated as each seed's reference row", async () => {
    const one = await basecamp(["sweep", grid, "--workers", "1", "--out", join(dir, "one.db"), "--json"]);
    expect(one.stderr).toContain("sweep: 24 of 24 cells done, 0 failed");
    expect(one.status).toBe(0);
    local = { json: one.stdout, outcomes: storedOutcomes(join(dir, "one.db")) };

    const report = JSON.parse(one.stdout) as SweepReport;
    expect(report).toMatchObject({ kind: "backtest", cells: 24, unfinished: 0, axes: ["alpha", "seed"], rank_by: "score.mean", failures: [] });
    expect(report.rows.map((r) => r.rank)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const means = report.rows.map((r) => r.summary.score.mean);
    expect(means).toEqual([...means].sort((a, b) => b - a));
    // v1_designated: one reference row per seed, with AIMC exactly 0.
    expect(report.benchmarks.map((b) => b.on)).toEqual([{ seed: 1 }, { seed: 2 }]);
    for (const b of report.benchmarks) expect(b.summary.aimc.mean).toBe(0);
    // The two seeds are two datasets: the same alpha scores differently on each.
    const byCell = new Map(report.rows.map((r) => [r.index, r.summary.score.mean]));
    expect(byCell.get(0)).not.toBe(byCell.get(1));

    const text = await basecamp(["sweep", grid, "--out", join(dir, "one.db"), "--resume", "--rank-by", "corr.sharpe", "--html", join(dir, "grid.html")]);
    expect(text.status).toBe(0);
    expect(text.stderr).toBe("");
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe(`sweep ${grid}: backtests, 24 of 24 cells finished, 0 failed`);
    expect(lines[1]).toBe("ranked by corr.sharpe; varied: alpha, seed");
    expect(lines[3]).toMatch(/^rank +cell +alpha +seed +CORR +CORR std +CORR Shp +CORR DD +AIMC .* score DD$/);
    expect(lines.filter((l) => l.startsWith(" ref"))).toHaveLength(2);
    const html = readFileSync(join(dir, "grid.html"), "utf8");
    expect(html).toContain("<h2>Leaderboard</h2>");
    expect(html).toContain('id="param-alpha"');
    expect(html).toContain('id="cumulative-chart"');
    expect(html).not.toMatch(/<script/i);
  }, 600_000);

  it("--cell runs a cell alone, its Python worker started afresh, with the same numbers as the sweep's worker forked from a fork server", async () => {
    expect(local).toBeDefined();
    const alone = await basecamp(["sweep", grid, "--cell", "5"]);
    expect(alone.status).toBe(0);
    const stored = local.outcomes.find((o) => o.idx === 5)!;
    expect(JSON.parse(alone.stdout).outcome).toEqual(JSON.parse(stored.outcome));
  }, 300_000);

  it("--workers 2, killed part-way and resumed, runs only the cells not finished and gives the same bytes as --workers 1", async () => {
    expect(local).toBeDefined();
    const db = join(dir, "two.db");
    const child = spawn(process.execPath, [BIN, "sweep", grid, "--workers", "2", "--out", db, "--json"], { stdio: ["ignore", "ignore", "pipe"] });
    // Killed (as a crash would) once the store shows 3 cells done: waits on the progress line, not on time.
    await new Promise<void>((done) => {
      createInterface({ input: child.stderr }).on("line", (line) => {
        if (/^sweep: 3 of 24 cells done/.test(line)) {
          child.kill("SIGKILL");
          done();
        }
      });
    });
    await new Promise((done) => child.on("close", done));
    const before = storedOutcomes(db).length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(24);

    const again = await basecamp(["sweep", grid, "--workers", "2", "--out", db, "--json"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`already holds ${before} finished cells; pass --resume`);

    const resumed = await basecamp(["sweep", grid, "--workers", "2", "--out", db, "--resume", "--json"]);
    expect(resumed.status).toBe(0);
    const progress = resumed.stderr.split("\n").filter((l) => l.startsWith("sweep: "));
    expect(progress).toHaveLength(24 - before);
    expect(progress[0]).toMatch(new RegExp(`^sweep: ${before + 1} of 24 cells done`));
    expect(resumed.stdout).toBe(local.json);
    expect(storedOutcomes(db)).toEqual(local.outcomes);
  }, 600_000);

  withRay("on a Ray head the test starts on 127.0.0.1 (and stops, alone)", () => {
    const head = useRayHead(2);

    it("gives the same leaderboard and per-cell numbers as the local pool, bit for bit, with every Ray port on the loopback", async () => {
      expect(local).toBeDefined();
      const listening = () => {
        const pids = new Set(head().processes().map((p) => p.pid));
        const lines = spawnSync("ss", ["-Hltnp"], { encoding: "utf8" }).stdout.split("\n");
        return lines.filter((l) => pids.has(Number(/pid=(\d+)/.exec(l)?.[1]))).map((l) => l.split(/\s+/)[3]);
      };
      const child = spawn(process.execPath, [BIN, "sweep", grid, "--ray", head().address, "--ray-python", VENV_PYTHON, "--out", join(dir, "ray.db"), "--json"], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
      // What the head and its workers listen on, taken once a cell is done (the job's workers are up).
      let ports: string[] = [];
      createInterface({ input: child.stderr }).on("line", (line) => {
        stderr += `${line}\n`;
        if (line.startsWith("sweep: 1 of 24 cells done")) ports = listening();
      });
      const [status] = (await once(child, "close")) as [number];
      expect(stderr).toContain("sweep: 24 of 24 cells done, 0 failed");
      expect(status).toBe(0);
      expect(stdout).toBe(local.json);
      expect(storedOutcomes(join(dir, "ray.db"))).toEqual(local.outcomes);
      // The GCS on the head's port, raylet, agents and workers: every one on the loopback.
      expect(ports.some((a) => a.endsWith(`:${head().address.split(":")[1]}`))).toBe(true);
      expect(ports.length).toBeGreaterThan(3);
      for (const address of ports) expect(address).toMatch(/^(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]):\d+$/);
    }, 600_000);

    it("runs a module strategy's cells as the local pool does: each as in a process of its own (its Ray worker's sweep-worker ends after it)", async () => {
      writeFileSync(join(dir, "leaver.ts"), LEAVER);
      const sweep = sweepFile("leaver.json", { base: { strategy: join(dir, "leaver.ts"), scenario: join(dir, "tiny.json") }, axes: { params: { scribble: [true, false, false] } } });
      const onRay = await basecamp(["sweep", sweep, "--ray", head().address, "--ray-python", VENV_PYTHON, "--json", "--out", join(dir, "leaver-ray.db")]);
      const locally = await basecamp(["sweep", sweep, "--workers", "1", "--json", "--out", join(dir, "leaver-local.db")]);
      expect(onRay.status).toBe(0);
      expect(onRay.stdout).toBe(locally.stdout);
      const rows = (JSON.parse(onRay.stdout) as SweepReport).rows;
      expect(rows.find((r) => r.index === 2)?.summary).toEqual(rows.find((r) => r.index === 1)?.summary);
    }, 300_000);

    it("Ctrl-C kills the Ray driver at once, keeps the finished cells and exits 130", async () => {
      const { code, stderr, procs: driver, db } = await interrupted("ray-interrupted.db", ["--ray", head().address, "--ray-python", VENV_PYTHON]);
      expect(code).toBe(130);
      expect(stderr).toMatch(/sweep: stopped with \d+ of 24 cells finished; --resume finishes the rest/);
      expect(driver.length).toBeGreaterThan(0);
      await until(() => stillRunning(driver).length === 0);
      expect(storedOutcomes(db).length).toBeGreaterThanOrEqual(1);
    }, 300_000);

    it("retries a cell whose Ray worker died, and the dead worker's sweep-worker leaves nothing running", async () => {
      // Two cells of a strategy that predicts its first feature; with hold, its fit first waits for SIGUSR1.
      writeFileSync(join(dir, "holder.py"), HOLDER);
      const sweep = sweepFile("held.json", { base: { strategy: join(dir, "holder.py"), scenario: join(dir, "tiny.json") }, axes: { params: { hold: [false, true] } } });
      const child = spawn(process.execPath, [BIN, "sweep", sweep, "--ray", head().address, "--ray-python", VENV_PYTHON, "--out", join(dir, "held.db"), "--json"], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
      const closed = once(child, "close");
      // The held fit's process, under the Ray worker running its task: killing that worker is its task's death.
      let first: ReturnType<typeof heldFit>;
      await until(() => (first = heldFit(rayWorkers(head()))) !== undefined);
      process.kill(first!.root, "SIGKILL");
      // Everything the dead worker had started ends (its sweep-worker, the sandbox, the held fit), and Ray runs the task again on another worker.
      await until(() => stillRunning([first!.holder]).length === 0);
      let second: ReturnType<typeof heldFit>;
      await until(() => (second = heldFit(rayWorkers(head()))) !== undefined);
      expect(second!.root).not.toBe(first!.root);
      process.kill(second!.holder.pid, "SIGUSR1");
      const [status] = (await closed) as [number];
      expect(stderr).toContain("sweep: 2 of 2 cells done, 0 failed");
      expect(status).toBe(0);
      // Held and retried, the cell scores as the one never held.
      const report = JSON.parse(stdout) as SweepReport;
      const [held, free] = [1, 0].map((index) => report.rows.find((r) => r.index === index)!);
      expect(held.summary).toEqual(free.summary);
      expect(held.expeds).toEqual(free.expeds);
    }, 300_000);

    it("records a cell whose sweep-worker died under Ray as failed, with how it died and the end of its stderr", async () => {
      writeFileSync(join(dir, "holder.py"), HOLDER);
      const sweep = sweepFile("worker-died.json", { base: { strategy: join(dir, "holder.py"), scenario: join(dir, "tiny.json") }, axes: { params: { hold: [true] } } });
      const db = join(dir, "worker-died.db");
      const child = spawn(process.execPath, [BIN, "sweep", sweep, "--ray", head().address, "--ray-python", VENV_PYTHON, "--out", db], { stdio: "ignore" });
      const closed = once(child, "close");
      let held: ReturnType<typeof heldFit>;
      await until(() => (held = heldFit(rayWorkers(head()))) !== undefined);
      const sweepWorker = descendants(held!.root).find((p) => p.command === "node");
      expect(sweepWorker).toBeDefined();
      // Its last words, as a crashing Node would leave them (a heap exhausted, an uncaught error), written to its own stderr.
      appendFileSync(`/proc/${sweepWorker!.pid}/fd/2`, "FATAL ERROR: the sweep-worker's last words\n");
      process.kill(sweepWorker!.pid, "SIGKILL");
      const [status] = (await closed) as [number];
      expect(status).toBe(1);
      const [stored] = storedOutcomes(db);
      expect(stored.status).toBe("failed");
      const outcome = JSON.parse(stored.outcome) as { reason: string; traceback: string };
      expect(outcome.reason).toBe("the Ray task failed: RuntimeError: the cell's sweep-worker exited (signal SIGKILL) while running the cell");
      expect(outcome.traceback).toContain("its stderr ended:\n");
      expect(outcome.traceback).toContain("FATAL ERROR: the sweep-worker's last words");
    }, 300_000);

    it("a sweep killed outright ends its Ray driver, and Ray ends the cell it was running", async () => {
      writeFileSync(join(dir, "holder.py"), HOLDER);
      const sweep = sweepFile("held-ray.json", { base: { strategy: join(dir, "holder.py"), scenario: join(dir, "tiny.json") }, axes: { params: { hold: [true] } } });
      const child = spawn(process.execPath, [BIN, "sweep", sweep, "--ray", head().address, "--ray-python", VENV_PYTHON, "--out", join(dir, "held-ray.db")], { stdio: "ignore" });
      const closed = once(child, "close");
      let held: ReturnType<typeof heldFit>;
      await until(() => (held = heldFit(rayWorkers(head()))) !== undefined);
      const driver = descendants(child.pid as number);
      expect(driver.length).toBeGreaterThan(0);
      child.kill("SIGKILL");
      await closed;
      await until(() => stillRunning(driver).length === 0);
      await until(() => stillRunning([held!.holder]).length === 0);
    }, 300_000);

    it("stop ends every process of the test's head: its session, nothing else on the machine", () => {
      expect(head().processes().map((p) => p.command)).toEqual(expect.arrayContaining(["gcs_server", "raylet"]));
      head().stop();
      expect(head().processes()).toEqual([]);
    });
  });

  it("Ctrl-C stops the workers and their Python at once, keeps the finished cells and exits 130", async () => {
    const { code, stderr, procs, db } = await interrupted("interrupted.db", ["--workers", "2"]);
    expect(code).toBe(130);
    expect(stderr).toMatch(/sweep: stopped with \d+ of 24 cells finished; --resume finishes the rest/);
    expect(procs.length).toBeGreaterThanOrEqual(2);
    // Killed processes leave when the kernel gets to them: on a busy machine, a moment after the sweep's own exit.
    await until(() => stillRunning(procs).length === 0);
    expect(storedOutcomes(db).length).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it("a sweep killed outright (no Ctrl-C to clean up) leaves nothing running: its worker abandons the cell it was running", async () => {
    writeFileSync(join(dir, "holder.py"), HOLDER);
    const sweep = sweepFile("held-local.json", { base: { strategy: join(dir, "holder.py"), scenario: join(dir, "tiny.json") }, axes: { params: { hold: [true] } } });
    const child = spawn(process.execPath, [BIN, "sweep", sweep, "--workers", "1", "--out", join(dir, "held-local.db")], { stdio: "ignore" });
    const closed = once(child, "close");
    let held: ReturnType<typeof heldFit>;
    await until(() => (held = heldFit([child.pid as number])) !== undefined);
    // The sweep-worker, its fork servers and launchers, the sandbox and the held fit: each in a process group of its own, or in the worker's.
    const tree = descendants(child.pid as number);
    child.kill("SIGKILL");
    await closed;
    await until(() => stillRunning(tree).length === 0);
    expect(stillRunning([held!.holder])).toEqual([]);
  }, 300_000);

  it("SIGTERM stops it as Ctrl-C does, and exits 143", async () => {
    const { code, stderr, procs } = await interrupted("terminated.db", ["--workers", "2"], "SIGTERM");
    expect(code).toBe(143);
    expect(stderr).toMatch(/sweep: stopped with \d+ of 24 cells finished; --resume finishes the rest/);
    await until(() => stillRunning(procs).length === 0);
  }, 300_000);

  it("crosses scenarios, datasets and scoring settings, with v1_designated on each and the base's --against strategies beside every cell", async () => {
    writeFileSync(join(dir, "wide.json"), JSON.stringify({ ...TINY_SCENARIO, name: "wide", dataset: { ...TINY_SCENARIO.dataset, n_features: 12 } }));
    const path = sweepFile("axes.json", {
      base: { strategy: "ridge", scenario: "tiny.json", against: ["random"] },
      axes: { scenarios: ["tiny.json", "wide.json"], datasets: [{ rows_per_exped: 30 }, { rows_per_exped: 40 }], scoring: [{ clip: 0.25 }, { clip: 0.001 }] },
    });
    const run = await basecamp(["sweep", path, "--workers", "2", "--out", join(dir, "axes.db"), "--json"]);
    expect(run.status).toBe(0);
    // Progress on stderr: cells done, failures, and the time left until the last.
    const progress = run.stderr.trim().split("\n");
    expect(progress).toHaveLength(8);
    for (const line of progress.slice(0, -1)) expect(line).toMatch(/^sweep: \d of 8 cells done, 0 failed, ETA (\d+m)?\d+s$/);
    expect(progress.at(-1)).toBe("sweep: 8 of 8 cells done, 0 failed");
    const report = JSON.parse(run.stdout) as SweepReport;
    expect(report.axes).toEqual(["scenario", "dataset", "scoring"]);
    expect(report.benchmarks.map((b) => b.on)).toHaveLength(8);
    for (const b of report.benchmarks) expect(Object.keys(b.on)).toEqual(["scenario", "dataset", "scoring"]);
    // Object axes are labelled by their JSON.
    const row = (scenario: string, rows: number, clip: number) =>
      report.rows.find((r) => r.varied.scenario === scenario && r.varied.dataset === `{"rows_per_exped":${rows}}` && r.varied.scoring === `{"clip":${clip}}`)!;
    // The scoring setting changes the scores, not the predictions: the same CORR, a score clipped to ±0.001.
    expect(row("tiny.json", 30, 0.001).summary.corr).toEqual(row("tiny.json", 30, 0.25).summary.corr);
    for (const e of row("tiny.json", 30, 0.001).expeds) expect(Math.abs(e.score)).toBeLessThanOrEqual(0.001);
    // The datasets and scenarios are different data.
    expect(row("tiny.json", 40, 0.25).summary.corr.mean).not.toBe(row("tiny.json", 30, 0.25).summary.corr.mean);
    expect(row("wide.json", 30, 0.25).summary.corr.mean).not.toBe(row("tiny.json", 30, 0.25).summary.corr.mean);
    const one = await basecamp(["sweep", path, "--cell", "0"]);
    expect(Object.keys(JSON.parse(one.stdout).outcome.result.report.against)).toEqual(["v1_designated", "random"]);
  }, 300_000);

  it("--resume runs a failed cell again: fixed, it is done", async () => {
    writeFileSync(join(dir, "later.py"), RAISES);
    const path = sweepFile("fixable.json", { base: { scenario: "tiny.json" }, axes: { strategies: ["ridge", "later.py"] } });
    const db = join(dir, "fixable.db");
    const first = await basecamp(["sweep", path, "--workers", "1", "--out", db]);
    expect(first.status).toBe(1);
    expect(first.stderr).toContain("sweep: 2 of 2 cells done, 1 failed");
    writeFileSync(join(dir, "later.py"), HOLDER);
    const again = await basecamp(["sweep", path, "--workers", "1", "--out", db, "--resume"]);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe("sweep: 2 of 2 cells done, 0 failed\n");
    expect(storedOutcomes(db).map((o) => o.status)).toEqual(["done", "done"]);
  }, 300_000);

  it("--resume finishes a sweep whose folder was moved (its store knows paths as the sweep file names them); a changed sweep is still refused", async () => {
    const before = join(dir, "movable");
    mkdirSync(before);
    writeFileSync(join(before, "tiny.json"), JSON.stringify(TINY_SCENARIO));
    const sweep = { base: { scenario: "tiny.json" }, axes: { strategies: ["ridge", "later.py"], scenarios: ["tiny.json", "default-tournament"] } };
    writeFileSync(join(before, "grid.json"), JSON.stringify(sweep));
    writeFileSync(join(before, "later.py"), RAISES);
    const first = await basecamp(["sweep", join(before, "grid.json"), "--workers", "1"]);
    expect(first.stderr).toContain("sweep: 4 of 4 cells done, 2 failed");
    const after = join(dir, "moved");
    renameSync(before, after);
    writeFileSync(join(after, "later.py"), HOLDER);
    const again = await basecamp(["sweep", join(after, "grid.json"), "--workers", "1", "--resume"]);
    // Only the two failed cells run again: the progress starts from the two done before the move.
    expect(again.stderr.split("\n").filter(Boolean).map((l) => l.replace(/, ETA .*$/, ""))).toEqual(["sweep: 3 of 4 cells done, 0 failed", "sweep: 4 of 4 cells done, 0 failed"]);
    expect(again.status).toBe(0);
    expect(storedOutcomes(join(after, "grid.sweep.db")).map((o) => o.status)).toEqual(["done", "done", "done", "done"]);
    writeFileSync(join(after, "grid.json"), JSON.stringify({ ...sweep, base: { ...sweep.base, params: { lambda: 2 } } }));
    const changed = await basecamp(["sweep", join(after, "grid.json"), "--workers", "1", "--resume"]);
    expect(changed.status).toBe(1);
    expect(changed.stderr).toContain(`${join(after, "grid.sweep.db")} holds the results of a different sweep; pass another --out`);
  }, 300_000);

  it("records a failed cell with its reason and goes on; the report gives its reproducing command", async () => {
    writeFileSync(join(dir, "failing.py"), RAISES);
    const path = sweepFile("failing.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { strategies: ["ridge", "failing.py"] } });
    const run = await basecamp(["sweep", path, "--workers", "2", "--out", join(dir, "failing.db")]);
    // Every cell ran, and the report is printed; the exit code says one failed.
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`sweep ${path}: backtests, 2 of 2 cells finished, 1 failed`);
    expect(run.stdout).toMatch(/failed cells:\ncell 1 \(strategy failing\.py\): .*not yet/);
    expect(run.stdout).toContain(`  reproduce: basecamp sweep ${path} --cell 1`);
    const [ok, failed] = storedOutcomes(join(dir, "failing.db"));
    expect(ok.status).toBe("done");
    expect(failed.status).toBe("failed");
    expect(JSON.parse(failed.outcome)).toMatchObject({ ok: false, reason: expect.stringContaining("not yet"), traceback: expect.stringContaining("failing.py") });
    const one = await basecamp(["sweep", path, "--cell", "1"]);
    expect(one.status).toBe(1);
    expect(JSON.parse(one.stdout)).toMatchObject({ index: 1, outcome: { ok: false } });
  }, 300_000);
});
