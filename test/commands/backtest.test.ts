import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readFrameParquet } from "../../src/data/parquet.js";
import type { BacktestReport } from "../../src/report/backtest-report.js";
import { predictPickles } from "../helpers/predict-pickles.js";
import { smallScenario } from "../helpers/small-scenario.js";
import { requires } from "../helpers/requires.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin", "basecamp.js");
const dir = mkdtempSync(join(tmpdir(), "basecamp-backtest-cli-"));

async function basecamp(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, ...args], { cwd: dir, maxBuffer: 64 << 20 });
}

describe("basecamp backtest", () => {
  const scenario = join(dir, "small.json");
  writeFileSync(scenario, JSON.stringify({ ...smallScenario(), dataset: { n_features: 12, n_core: 4, train_expeds: 12, validation_expeds: 5, rows_per_exped: 60, gap_expeds: 2, universe_size: 40 } }));

  it("--json has the report's shape, and its per-exped numbers equal `basecamp score` of the saved predictions to 1e-12", async () => {
    const saved = join(dir, "predictions.parquet");
    const html = join(dir, "report.html");
    const { stdout } = await basecamp("backtest", join(root, "examples/strategy.ts"), "--scenario", scenario, "--against", "ridge", "--json", "--save-predictions", saved, "--html", html);
    const report = JSON.parse(stdout) as BacktestReport;
    expect(Object.keys(report).slice(0, 3)).toEqual(["strategy", "expeds", "summary"]);
    expect(report.strategy).toBe("strategy.ts");
    expect(Object.keys(report.against)).toEqual(["v1_designated", "ridge"]);
    expect(report.expeds).toHaveLength(5);
    expect(readFileSync(html, "utf8")).toContain("<svg");

    // The saved file carries the scenario's hidden core features for NCORR, beside the standard columns.
    const standard = new Set(["prediction", "target", "v1_designated"]);
    const core = Object.keys(readFrameParquet(readFileSync(saved)).columns).filter((c) => !standard.has(c));
    expect(core).toHaveLength(4);
    const hidden = await basecamp("score", saved, "--core", core.join(","), "--json");
    const scored = JSON.parse(hidden.stdout) as { expeds: { exped: string; n: number; corr: number; aimc: number; ncorr: number }[] };
    expect(scored.expeds.map((e) => e.exped)).toEqual(report.expeds.map((e) => e.exped));
    scored.expeds.forEach((s, i) => {
      const b = report.expeds[i];
      expect(s.n).toBe(b.n);
      expect(Math.abs(s.corr - (b.corr as number))).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(s.aimc - (b.aimc as number))).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(s.ncorr - (b.ncorr as number))).toBeLessThanOrEqual(1e-12);
    });
  });

  requires("python").it("prints the text report of examples/agent.py with the summary, the expeds and the sparklines", async () => {
    const { stdout } = await basecamp("backtest", join(root, "examples/agent.py"), "--scenario", scenario, "--against", "random");
    expect(stdout).toMatch(/^backtest of agent\.py on /);
    expect(stdout).toMatch(/^agent\.py +[+-]\d\.\d{4} /m);
    expect(stdout).toContain("v1_designated");
    expect(stdout).toMatch(/cumulative score/);
  });

  // Its worker starts before the backtest's modules load (backtest-command.ts), its start answering the sandbox probe.
  requires("sandbox").it("walks a model file sandboxed, its worker's output in the backtest's log directory under its agent's name", async () => {
    const model = join(dir, "mean_rank.pkl");
    writeFileSync(model, (await predictPickles())("mean_rank"));
    const { stdout, stderr } = await basecamp("backtest", model, "--scenario", scenario, "--json");
    const [banner, logs] = stderr.split("\n");
    expect(banner).toMatch(/^basecamp: python: .* sandboxed \(bubblewrap\)$/);
    const logDir = /go to (\S+)\/<agent>\.log$/.exec(logs)?.[1] as string;
    expect(readdirSync(join(dir, logDir))).toEqual(["mean_rank.log"]);
    const report = JSON.parse(stdout) as BacktestReport;
    expect(report.strategy).toBe("mean_rank.pkl");
    expect(report.summary.entered).toBe(5);
  });

  requires("python").it("stops on a model file that does not unpickle with one line naming it", async () => {
    const model = join(dir, "garbage.pkl");
    writeFileSync(model, "garbage\n");
    const failed = basecamp("backtest", model, "--scenario", scenario, "--json");
    await expect(failed).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/\nbasecamp: agents\[0\]\.strategy: garbage\.pkl: the model file does not unpickle: .*\n$/) });
  });

  requires("python").it("checks a model file backtest's flags before its worker starts: a bad one leaves no log directory", async () => {
    const model = join(dir, "unchecked.pkl");
    writeFileSync(model, (await predictPickles())("mean_rank"));
    const cwd = mkdtempSync(join(tmpdir(), "basecamp-backtest-flags-"));
    const failed = run(process.execPath, [BIN, "backtest", model, "--scenario", scenario, "--html", join(cwd, "missing", "report.html")], { cwd });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringMatching(/^basecamp: --html .*: no directory /) });
    expect(existsSync(join(cwd, ".basecamp"))).toBe(false);
  });

  // Compiled, the engine runs bundled (bin/bundle-cli.js) and the module imports the compiled Strategy API: one StrategyFailure for both.
  it("a TypeScript strategy's StrategyFailure, imported from basecamp-sim/strategy, misses its round with its reason", async () => {
    const module = join(dir, "declines.ts");
    writeFileSync(
      module,
      [
        'import { StrategyFailure, duringWindow, z, type Strategy } from "basecamp-sim/strategy";',
        'const declines: Strategy<Record<string, never>> = { name: "declines", kind: "tournament", summary: "never predicts", params: z.strictObject({}),',
        '  actAt: (slot, _p, rng) => duringWindow(slot, rng), act: async () => { throw new StrategyFailure("no view this round"); } };',
        "export default declines;",
      ].join("\n"),
    );
    const report = JSON.parse((await basecamp("backtest", module, "--scenario", scenario, "--json")).stdout) as BacktestReport;
    expect(report.refusals).toHaveLength(5);
    expect(new Set(report.refusals.map((r) => r.reason))).toEqual(new Set(["failed: no view this round"]));
  });

  it("fails with one line naming a bad --params or an unknown strategy", async () => {
    await expect(basecamp("backtest", "ridge", "--scenario", scenario, "--params", "{nope")).rejects.toMatchObject({ stderr: expect.stringMatching(/^basecamp: --params: not JSON/) });
    await expect(basecamp("backtest", "nope", "--scenario", scenario)).rejects.toMatchObject({ stderr: expect.stringMatching(/^basecamp: agents\[0\]\.strategy: unknown strategy 'nope'/) });
  });
});
