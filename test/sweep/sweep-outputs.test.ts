import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { basecamp, errorLines } from "../helpers/cli.js";
import { TINY_SCENARIO } from "./sweep-fixtures.js";

const root = mkdtempSync(join(tmpdir(), "basecamp-sweep-outputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory of its own holding a two-cell sweep file (built-in ridge on a tiny scenario): the file's path. */
function sweepIn(name: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "tiny.json"), JSON.stringify(TINY_SCENARIO));
  writeFileSync(join(dir, "grid.json"), JSON.stringify({ base: { strategy: "ridge", scenario: "tiny.json" }, axes: { params: { lambda: [1, 2] } } }));
  return join(dir, "grid.json");
}

/** Every entry of `dir` with its bytes (a directory's as null). */
const contents = (dir: string) => Object.fromEntries(readdirSync(dir, { withFileTypes: true }).map((e) => [e.name, e.isDirectory() ? null : readFileSync(join(dir, e.name)).toString("base64")]));

/** Runs `basecamp sweep` with `args`, expecting it to stop before its first cell with the one line `error`, leaving `dir` as it was. */
async function refused(dir: string, args: string[], error: string): Promise<void> {
  const before = contents(dir);
  const run = await basecamp(["sweep", ...args]);
  expect(errorLines(run)).toEqual([`basecamp: ${error}`]);
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(contents(dir)).toEqual(before);
}

describe("basecamp sweep's output paths, checked before its first cell", () => {
  it("refuses an --html page it could not write, naming the flag, before any cell runs or any store is made", async () => {
    const grid = sweepIn("html");
    await refused(join(root, "html"), [grid, "--html", "/nonexistent/x.html"], "--html /nonexistent/x.html: no directory /nonexistent");
    await refused(join(root, "html"), [grid, "--html", root], `--html ${root}: is a directory`);
    // Over the sweep file, or over its store: refused before the sweep would write over either.
    await refused(join(root, "html"), [grid, "--html", grid], `--html ${grid}: is the sweep file`);
    const store = join(root, "html", "grid.sweep.db");
    await refused(join(root, "html"), [grid, "--out", store, "--html", store], `--html ${store}: is the results store`);
  });

  it("refuses an --out that is not a results store, naming the flag and the path, and writes nothing", async () => {
    const grid = sweepIn("out");
    const dir = join(root, "out");
    writeFileSync(join(dir, "notes.json"), '{"a": 1}\n');
    await refused(dir, [grid, "--out", join(dir, "notes.json")], `--out ${join(dir, "notes.json")}: not a sweep results store (file is not a database)`);
    await refused(dir, [grid, "--out", "/nonexistent/x.db"], "--out /nonexistent/x.db: no directory /nonexistent");
    await refused(dir, [grid, "--out", dir], `--out ${dir}: is a directory`);
    // Another program's SQLite database: no sweep tables added, not switched to WAL.
    const other = new Database(join(dir, "other.db"));
    other.exec("CREATE TABLE things (id INTEGER PRIMARY KEY)");
    other.close();
    await refused(dir, [grid, "--out", join(dir, "other.db")], `--out ${join(dir, "other.db")}: not a sweep results store (a SQLite database without its sweep table)`);
  });

  it("names the default store, beside the sweep file, by its path", async () => {
    const grid = sweepIn("default");
    const dir = join(root, "default");
    writeFileSync(join(dir, "grid.sweep.db"), "not a database\n");
    await refused(dir, [grid], `${join(dir, "grid.sweep.db")}: not a sweep results store (file is not a database)`);
    rmSync(join(dir, "grid.sweep.db"));
    mkdirSync(join(dir, "grid.sweep.db"));
    await refused(dir, [grid], `${join(dir, "grid.sweep.db")}: is a directory`);
  });

  it("refuses a --rank-by with more than a term and a statistic", async () => {
    const grid = sweepIn("rank-by");
    await refused(join(root, "rank-by"), [grid, "--rank-by", "score.mean.bogus"], "--rank-by: expected TERM.STAT with TERM one of corr, aimc, ncorr, score and STAT one of mean, std, sharpe, max_drawdown, hit_rate, total (total for score only), got 'score.mean.bogus'");
  });
});
