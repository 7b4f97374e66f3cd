import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planCells } from "../../sim/sweep/cells.js";
import { checkCells } from "../../sim/sweep/check-cells.js";
import { checkNamedFiles } from "../../sim/sweep/named-files.js";
import { loadSweep } from "../../sim/sweep/sweep-file.js";
import { basecamp, errorLines } from "../helpers/cli.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-check-cells-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
writeFileSync(join(dir, "mine.py"), "def predict(live):\n    return live.iloc[:, 0]\n");
mkdirSync(join(dir, "data"));

/** The sweep file `name` holding `sweep`, its cells checked: the refusal's message, or null. */
function refusal(name: string, sweep: Record<string, unknown>): string | null {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(sweep));
  try {
    const sweep = loadSweep(path);
    checkNamedFiles(path, sweep);
    checkCells(path, planCells(sweep));
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("a sweep's cells are checked before any runs", () => {
  it("passes a sweep whose every cell is sound (a file strategy's params are left to its load)", () => {
    expect(refusal("ok.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { params: { lambda: [1, 10] }, seeds: [1, 2], datasets: [{ rows_per_exped: 30 }] } })).toBeNull();
    expect(refusal("file.json", { base: { strategy: "mine.py", scenario: "tiny.json" }, axes: { params: { anything: [1] } } })).toBeNull();
  });

  it("refuses a built-in given a param it does not take, naming the cell, its values and the strategy", () => {
    expect(refusal("param.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { params: { alpha: [0.1, 1] } } })).toMatch(
      new RegExp(`^${join(dir, "param.json")}: cell 0 \\(alpha 0\\.1\\): strategy ridge: params: .*"alpha"`),
    );
  });

  it("refuses an unknown built-in, on the cell that names it", () => {
    expect(refusal("name.json", { base: { scenario: "tiny.json" }, axes: { strategies: ["ridge", "ridgee"] } })).toMatch(/: cell 1 \(strategy ridgee\): strategy: .*ridgee/);
  });

  it("refuses an unknown built-in among the strategies played against", () => {
    expect(refusal("against.json", { base: { strategy: "ridge", scenario: "tiny.json", against: ["random", "randon"] } })).toMatch(/: cell 0: against\[1\]: .*'randon'/);
  });

  it("refuses a dataset, scoring or seed the scenario cannot take, naming the cell that lays it over the scenario", () => {
    expect(refusal("dataset.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { datasets: [{ rows_per_exped: 30 }, { bogus: 1 }] } })).toMatch(
      /: cell 1 \(dataset \{"bogus":1\}\): .*tiny\.json is not a valid scenario: dataset: .*"bogus"/,
    );
  });

  it("refuses a scenario, strategy file or dataset directory that is not there, naming each field", () => {
    expect(refusal("files.json", { base: { strategy: "mine.py", scenario: "tiny.json", against: ["random", "gone.py"], dataset: { dir: "data" } }, axes: { strategies: ["mine.py", "typo.py"] } })).toBe(
      `${join(dir, "files.json")}: base.against.1: gone.py: no such file; axes.strategies.1: typo.py: no such file`,
    );
    expect(refusal("scenario.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { scenarios: ["tiny.json", "nosuch"], datasets: [{ dir: "data" }, { dir: "nodata" }] } })).toMatch(
      new RegExp(`^${join(dir, "scenario.json")}: axes\\.scenarios\\.1: nosuch: no such scenario file, nor a built-in .*; axes\\.datasets\\.1\\.dir: nodata: no such directory$`),
    );
    expect(refusal("dir.json", { base: { strategy: "ridge", scenario: "tiny.json", dataset: { dir: "tiny.json" } } })).toBe(`${join(dir, "dir.json")}: base.dataset.dir: tiny.json: no such directory`);
  });

  it("leaves out a base field every cell's axis value replaces (a placeholder strategy or dataset dir)", () => {
    const named = (name: string, sweep: Record<string, unknown>) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(sweep));
      try {
        checkNamedFiles(path, loadSweep(path));
        return null;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(named("placeholder.json", { base: { strategy: "old.py", scenario: "tiny.json", dataset: { dir: "olddata" } }, axes: { strategies: ["mine.py"], datasets: [{ dir: "data" }] } })).toBeNull();
    expect(named("partly.json", { base: { strategy: "mine.py", scenario: "tiny.json", dataset: { dir: "olddata" } }, axes: { datasets: [{ dir: "data" }, { rows_per_exped: 30 }] } })).toBe(
      `${join(dir, "partly.json")}: base.dataset.dir: olddata: no such directory`,
    );
  });

  it("refuses a dataset too large to generate, on the cell that asks for it, before any world is built", () => {
    expect(refusal("huge.json", { base: { strategy: "ridge", scenario: "tiny.json" }, axes: { datasets: [{ rows_per_exped: 40 }, { rows_per_exped: 10_000_000 }] } })).toMatch(
      /: cell 1 \(dataset \{"rows_per_exped":10000000\}\): DatasetSpec makes \d+ rows of 8 features and a target, \d+ values: at most 268435456 .*lower rows_per_exped/,
    );
  });

  it("refuses a cell too large to send a worker, before any runs", () => {
    expect(refusal("large.json", { base: { strategy: "mine.py", scenario: "tiny.json" }, axes: { params: { blob: ["x", "y".repeat(1 << 20)] } } })).toMatch(
      /: cell 1 \(blob y{50}…y{49}\): its JSON is 10\d{5} bytes, at most 1048576 \(a value too large to send a worker\)$/,
    );
    // Counted in UTF-8 bytes, as the line is sent: 600,000 characters of "é" are 1,200,000 bytes.
    expect(refusal("accents.json", { base: { strategy: "mine.py", scenario: "tiny.json" }, axes: { params: { blob: ["é".repeat(600_000)] } } })).toMatch(/: its JSON is 12\d{5} bytes, at most 1048576/);
  });

  it("lets --cell N run its cell though another cell names a file that is not there", async () => {
    const path = join(dir, "other-missing.json");
    writeFileSync(path, JSON.stringify({ base: { scenario: "tiny.json" }, axes: { strategies: ["ridge", "typo.py"] } }));
    expect(errorLines(await basecamp(["sweep", path]))).toEqual([`basecamp: ${path}: axes.strategies.1: typo.py: no such file`]);
    const one = await basecamp(["sweep", path, "--cell", "0"]);
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ index: 0, outcome: { ok: true } });
  }, 60_000);

  it("stops basecamp sweep before its first cell: one line, exit 1, no results store", async () => {
    const path = join(dir, "refused.json");
    writeFileSync(path, JSON.stringify({ base: { strategy: "ridge", scenario: "tiny.json" }, axes: { params: { alpha: [0.1, 1] } } }));
    const run = await basecamp(["sweep", path]);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${path}: cell 0 (alpha 0.1): strategy ridge: params`);
    expect(existsSync(join(dir, "refused.sweep.db"))).toBe(false);
  });
});
