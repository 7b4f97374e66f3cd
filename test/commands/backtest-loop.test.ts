import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { BacktestReport } from "../../src/report/backtest-report.js";
import { writeDatasetDir } from "../helpers/dataset-dir.js";
import { descendants, killGroup, stillRunning } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { VENV_PYTHON } from "../helpers/venv.js";
import { until } from "../helpers/until.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin", "basecamp.js");
const fixture = (name: string) => join(root, "test", "fixtures", "backtest", name);
const dir = mkdtempSync(join(tmpdir(), "basecamp-backtest-loop-"));
const scenario = join(dir, "small.json");
writeFileSync(scenario, JSON.stringify({ ...smallScenario(), dataset: { n_features: 12, n_core: 4, train_expeds: 12, validation_expeds: 5, rows_per_exped: 60, gap_expeds: 2, universe_size: 40 } }));

let child: ChildProcess | undefined;
afterEach(() => {
  killGroup(child); // whatever a failed test left running
  child = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `basecamp backtest …` in the test's directory (its logs land there), piped: progress lines only with --progress. */
function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  child = spawn(process.execPath, [BIN, "backtest", ...args], { cwd: dir, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  return child;
}

async function backtest(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return backtestIn({}, ...args);
}

/** backtest() with `env` over this process's environment. */
async function backtestIn(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const p = start(args, env);
  let stdout = "";
  let stderr = "";
  p.stdout!.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  p.stderr!.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  const [status] = (await once(p, "close")) as [number | null];
  return { status, stdout, stderr };
}

/** The log file a run named in its `logs:` line, for `agent`. */
function logOf(stderr: string, agent: string): string {
  const logDir = /go to (\S+)\/<agent>\.log/.exec(stderr)?.[1];
  expect(logDir, stderr).toBeDefined();
  return join(dir, logDir as string, `${agent}.log`);
}

describe("backtest's debugging loop", () => {
  requires("python").it("a fit that raises stops the backtest at once: exit 1, the traceback with the file and line, the strategy's printed lines", async () => {
    const run = await backtest(fixture("fit-raises.py"), "--scenario", scenario);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const line = readFileSync(fixture("fit-raises.py"), "utf8").split("\n").findIndex((l) => l.includes("/ 0")) + 1;
    expect(run.stderr).toMatch(/fit-raises: fit \(exped \S+\) failed: fit raised ZeroDivisionError: division by zero\nTraceback \(most recent call last\):\n/);
    expect(run.stderr).toContain(`File "fit-raises.py", line ${line}, in fit\n    return len(train) / 0\n`);
    expect(run.stderr).not.toContain("worker.py");
    expect(run.stderr).toMatch(/last 2 lines of \S+fit-raises\.log:\n {2}fitting on 720 rows\n {2}about to divide\n/);
    expect(run.stderr.trimEnd().split("\n").pop()).toBe("basecamp: fit-raises's fit failed, so the backtest stopped (--keep-going walks on without it)");
    expect(readFileSync(logOf(run.stderr, "fit-raises"), "utf8")).toBe("fitting on 720 rows\nabout to divide\n");
  });

  requires("python").it("a strategy that fails as it loads: exit 1, the traceback of its own frames and what it printed", async () => {
    const run = await backtest(fixture("load-raises.py"), "--scenario", scenario, "--keep-going");
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`Traceback (most recent call last):\n  File "load-raises.py", line 3, in <module>\n    threshold = undefined_setting\n`);
    expect(run.stderr).not.toContain("<frozen");
    expect(run.stderr).toMatch(/last 1 lines of \S+load-raises\.log:\n {2}importing\n/);
    expect(run.stderr.trimEnd().split("\n").pop()).toBe(
      "basecamp: agents[0].strategy: load-raises.py: the strategy does not load: NameError: name 'undefined_setting' is not defined",
    );
  });

  requires("python").it("--keep-going: the failed fit is shown, the agent misses every later exped without a refit, the others walk on", async () => {
    const run = await backtest(fixture("fit-raises.py"), "--scenario", scenario, "--against", "ridge", "--keep-going", "--json");
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`File "fit-raises.py", line`);
    const report = JSON.parse(run.stdout) as BacktestReport;
    expect(report.summary.entered).toBe(0);
    const [first, ...later] = report.refusals;
    expect(first.reason).toBe("failed: fit: fit raised ZeroDivisionError: division by zero");
    expect(later.map((r) => r.reason)).toEqual(report.expeds.slice(1).map(() => `failed: no further part: its fit failed in ${first.exped}`));
    expect(report.against.ridge.summary.entered).toBe(report.expeds.length);
    // fit ran once: the train split was not sent again for each exped.
    expect(readFileSync(logOf(run.stderr, "fit-raises"), "utf8").match(/fitting on/g)).toHaveLength(1);
  });

  requires("python").it("a hanging predict stops at --predict-timeout with a line saying so", async () => {
    const run = await backtest(fixture("hangs.py"), "--scenario", scenario, "--predict-timeout", "1");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/hangs: predict \(exped \S+\) failed: predict did not finish within 1 s and was stopped\n/);
    expect(run.stderr).toMatch(/last 2 lines of \S+hangs\.log:\n {2}fit on 720 rows\n {2}predict call 1\n/);
  });

  requires("python").it("a hanging fit stops at --fit-timeout with a line saying so", async () => {
    const run = await backtest(fixture("hangs.py"), "--scenario", scenario, "--params", '{"fit_hangs": true}', "--fit-timeout", "1");
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/hangs: fit \(exped \S+\) failed: fit did not finish within 1 s and was stopped\n/);
    expect(run.stderr).toMatch(/last 1 lines of \S+hangs\.log:\n {2}fit on 720 rows\n/);
  });

  requires("python").it("SIGINT once the walk has started: the workers are stopped and the report of the expeds settled so far is printed", async () => {
    const p = start([fixture("hangs.py"), "--scenario", scenario, "--params", '{"hang_from": 3}', "--progress"]);
    let stdout = "";
    let stderr = "";
    p.stdout!.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    const walking = new Promise<void>((resolve, reject) => {
      p.stderr!.setEncoding("utf8").on("data", (s: string) => {
        stderr += s;
        if (/backtest: walk: [1-9]\d* of 5 expeds settled/.test(stderr)) resolve();
      });
      p.once("exit", (code) => reject(new Error(`exited (${code}) before the walk started:\n${stderr}`)));
    });
    await walking;
    const tree = descendants(p.pid!);
    expect(tree.length).toBeGreaterThan(0);
    const closed = once(p, "close");
    p.kill("SIGINT");
    const [status] = (await closed) as [number | null];
    expect(status).toBe(130);
    expect(stderr).toMatch(/backtest: stopped by SIGINT; the report covers the [1-4] expeds settled before\n/);
    expect(stdout).toMatch(/^backtest of hangs\.py on /);
    expect(stdout).toMatch(/^[1-4] expeds walked/m);
    await until(() => stillRunning(tree).length === 0);
  });

  it("--html and --save-predictions are checked before any work, and each file written is followed by a 'wrote' line", async () => {
    const missing = await backtest("ridge", "--scenario", scenario, "--html", join(dir, "nope", "report.html"), "--progress");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`basecamp: --html ${join(dir, "nope", "report.html")}: no directory ${join(dir, "nope")}\n`);
    const noName = await backtest("ridge", "--scenario", scenario, "--save-predictions", dir + "/", "--progress");
    expect(noName.stderr).toMatch(/^basecamp: --save-predictions: expected a \.csv or \.parquet file name/);
    const aDir = await backtest("ridge", "--scenario", scenario, "--html", dir, "--progress");
    expect(aDir.stderr).toBe(`basecamp: --html ${dir}: is a directory\n`);
    // An output over the strategy's own file, or over the other output's, is refused: the backtest would write over it.
    const mine = join(dir, "mine.py");
    writeFileSync(mine, "def predict(live, benchmark=None):\n    return live.iloc[:, 0].rank(pct=True)\n");
    const overStrategy = await backtest(mine, "--scenario", scenario, "--html", mine, "--progress");
    expect(overStrategy.stderr).toBe(`basecamp: --html ${mine}: is the strategy file\n`);
    expect(readFileSync(mine, "utf8")).toMatch(/^def predict/);
    const both = join(dir, "both.csv");
    const overOther = await backtest("ridge", "--scenario", scenario, "--html", both, "--save-predictions", both, "--progress");
    expect(overOther.stderr).toBe(`basecamp: --save-predictions ${both}: is --html's file too\n`);

    const html = join(dir, "report.html");
    const saved = join(dir, "walk.csv");
    const run = await backtest("ridge", "--scenario", scenario, "--html", html, "--save-predictions", saved, "--json");
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(`wrote ${html}\nwrote ${saved}\n`);
    expect(existsSync(html) && existsSync(saved)).toBe(true);
  });

  it("--data DIR backtests on a dataset directory, saying which target, prefix and core features it took and which exped it held out", async () => {
    const data = join(dir, "v5");
    writeDatasetDir(data, "blank");
    const run = await backtest("ridge", "--data", data, "--target", "target_aux", "--json");
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`data: ${data}\n  scored target: target_aux (--target; the file's targets: target, target_aux)\n  benchmark prefix: v5 (default; --prefix to choose)\n`);
    const held = /rounds held out: 1 \(validation's last exped, (\S+), the service's round: not walked\)/.exec(run.stderr)?.[1];
    const report = JSON.parse(run.stdout) as BacktestReport;
    expect(report.expeds.length).toBe(5);
    expect(report.expeds.map((e) => e.exped)).not.toContain(held);
    expect(report.context.scenario).toBe(data);

    // A live.parquet that carries the target is the service's round: every validation exped is walked.
    const scored = join(dir, "v5-scored");
    writeDatasetDir(scored, "scored");
    const live = await backtest("ridge", "--data", scored, "--json");
    expect(live.status).toBe(0);
    expect(live.stderr).toMatch(/\n  rounds held out: none \(the service's round is live\.parquet's \S+\); every validation exped is walked\n/);
    expect((JSON.parse(live.stdout) as BacktestReport).expeds.length).toBe(6);

    const stray = await backtest("ridge", "--scenario", scenario, "--core", "feature_a");
    expect(stray.stderr).toBe("basecamp: --core names a setting of --data DIR, and no --data was given\n");
  });

  requires("venv").it("--data: a Python strategy's worker reads train.parquet itself where its interpreter has pyarrow, and scores as when it is sent the split", async () => {
    const data = join(dir, "v5-read");
    writeDatasetDir(data, "blank");
    const agent = join(root, "examples", "agent.py");
    const read = await backtestIn({ BASECAMP_PYTHON: VENV_PYTHON as string }, agent, "--data", data, "--json");
    // Debian's python3 has no pyarrow: the split is read here and sent to it.
    const sent = await backtestIn({ BASECAMP_PYTHON: "/usr/bin/python3" }, agent, "--data", data, "--json");
    expect([read.status, sent.status], read.stderr + sent.stderr).toEqual([0, 0]);
    const line = "  train split: read from train.parquet by each Python strategy's worker (pandas), not sent to it\n";
    expect(read.stderr).toContain(line);
    expect(sent.stderr).not.toContain("train split:");
    const [a, b] = [read, sent].map((r) => JSON.parse(r.stdout) as BacktestReport);
    expect(a.context.train_rows).toBe(b.context.train_rows);
    expect(a.expeds.length).toBe(b.expeds.length);
    a.expeds.forEach((e, i) => {
      expect(e.n).toBe(b.expeds[i].n);
      expect(e.corr).toBeCloseTo(b.expeds[i].corr as number, 9);
      expect(e.aimc).toBeCloseTo(b.expeds[i].aimc as number, 9);
    });
  });

  requires("venv").it("--data: a fit on train.parquet, which starts as the worker loads, that raises stops the backtest as in its first exped, with its traceback", async () => {
    const data = join(dir, "v5-fit-raises");
    writeDatasetDir(data, "blank");
    const run = await backtestIn({ BASECAMP_PYTHON: VENV_PYTHON as string }, fixture("fit-raises.py"), "--data", data);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("  train split: read from train.parquet by each Python strategy's worker (pandas), not sent to it\n");
    expect(run.stderr).toMatch(/fit-raises: fit \(exped \S+\) failed: fit raised ZeroDivisionError: division by zero\nTraceback \(most recent call last\):\n/);
    expect(run.stderr).toMatch(/last 2 lines of \S+fit-raises\.log:\n {2}fitting on \d+ rows\n {2}about to divide\n/);
    expect(run.stderr.trimEnd().split("\n").pop()).toBe("basecamp: fit-raises's fit failed, so the backtest stopped (--keep-going walks on without it)");
  });
});
