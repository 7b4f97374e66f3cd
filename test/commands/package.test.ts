import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallScenario } from "../helpers/small-scenario.js";
import { requires } from "../helpers/requires.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

let dir: string;
let pkg: string;
let files: string[];

/**
 * `npm pack` (which builds dist/ first) of a copy of the checkout's package files, unpacked as
 * `npm install` would lay it out, beside the checkout's node_modules (installing ~200
 * dependencies, better-sqlite3 compiled, takes minutes). The copy builds its own dist/: the
 * checkout's, which other files' tests run through `basecamp`, is never rebuilt under them.
 */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "basecamp-pack-"));
  const copy = join(dir, "checkout");
  for (const f of ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "README.md", "LICENSE", "bin", "src", "sim", "scenarios", "examples", "data/samples", "docs"]) {
    cpSync(join(root, f), join(copy, f), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: copy });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("["))) as { filename: string; files: { path: string }[] }[];
  files = packed.files.map((f) => f.path);
  execFileSync("tar", ["-xzf", join(dir, packed.filename), "-C", dir]);
  pkg = join(dir, "package");
  symlinkSync(join(root, "node_modules"), join(pkg, "node_modules"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packed bin, run by plain node from a directory outside the package. */
function basecamp(...args: string[]) {
  const cwd = join(dir, "elsewhere");
  mkdirSync(cwd, { recursive: true });
  return run(process.execPath, [join(pkg, "bin", "basecamp.js"), ...args], { cwd, maxBuffer: 1 << 24 });
}

describe("the npm package", () => {
  it("ships the compiled code with its Python helpers, worker modules and web app, the scenarios, examples, samples and docs, and no tests or TypeScript sources", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "bin/basecamp.js",
        "dist/src/cli.js",
        "dist/sim/strategy-api.js",
        "dist/sim/strategy-api.d.ts",
        "dist/src/scoring/settle-worker.js",
        "dist/src/scoring/score-frame-worker.js",
        "dist/src/participant/python/worker.py",
        "dist/src/data/python/make_ridge_pickle.py",
        "dist/src/web/index.html",
        "dist/src/web/participant.js",
        "scenarios/default-tournament.json",
        "examples/strategy.ts",
        "examples/agent.py",
        "data/samples/predict.pkl",
        "docs/scoring.md",
        "README.md",
      ]),
    );
    expect(files.filter((f) => f.startsWith("test/") || f.startsWith("src/") || f.startsWith("sim/"))).toEqual([]);
    expect(files.filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts") && !f.startsWith("examples/"))).toEqual([]);
  });

  it("runs compiled on plain node from any directory: --help, the built-in scenarios by name, a replay", async () => {
    expect(readdirSync(pkg)).not.toContain("src");
    expect((await basecamp("--help")).stdout).toMatch(/scenarios\s+list the built-in scenarios/);
    const names = (await basecamp("scenarios")).stdout.split("\n").filter((l) => l && !l.startsWith(" "));
    expect(names).toEqual(["auto-submit-tournament", "compute-event", "compute-kinds-event", "default-event", "default-tournament", "staking-tournament"]);
    const replay = await basecamp("run", "default-event", "--plain");
    expect(replay.stdout).toMatch(/^default-event \(seed /);
    expect(replay.stdout).toMatch(/event log: \d+ events, digest [0-9a-f]{64}\n$/);
    await expect(basecamp("run", "no-such-scenario")).rejects.toThrow(/no-such-scenario: no such scenario file, nor a built-in scenario of that name \(built-in: auto-submit-tournament, /);
  });

  requires("python").it("backtests a TypeScript strategy importing basecamp-sim/strategy and a Python file, both outside the package", async () => {
    const own = join(dir, "elsewhere");
    mkdirSync(own, { recursive: true });
    copyFileSync(join(pkg, "examples", "strategy.ts"), join(own, "mine.ts"));
    copyFileSync(join(pkg, "examples", "agent.py"), join(own, "agent.py"));
    writeFileSync(join(own, "small.json"), JSON.stringify(smallScenario()));
    const { stdout } = await basecamp("backtest", "mine.ts", "--against", "agent.py", "--scenario", "small.json", "--json");
    const report = JSON.parse(stdout) as { strategy: string; against: Record<string, unknown> };
    expect(report.strategy).toBe("mine.ts");
    expect(Object.keys(report.against)).toEqual(["v1_designated", "agent"]);
  });
});
