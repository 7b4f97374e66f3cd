import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { basecamp } from "../helpers/cli.js";
import { requires } from "../helpers/requires.js";
import { smallScenario } from "../helpers/small-scenario.js";

const dir = mkdtempSync(join(tmpdir(), "basecamp-run-plain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "small.json");
writeFileSync(file, JSON.stringify(smallScenario()));

const count = (text: string, pattern: RegExp) => text.split("\n").filter((l) => pattern.test(l)).length;

describe("basecamp run, piped", () => {
  it("prints each settled round's board once and the final standings, the digest last; --verbose adds the actions and the standings after each round", async () => {
    const quiet = await basecamp(["run", file]);
    const verbose = await basecamp(["run", file, "--verbose"]);
    for (const run of [quiet, verbose]) {
      expect(run.status).toBe(0);
      expect(count(run.stdout, /^exped_\d+ board$/)).toBe(3);
      expect(count(run.stdout, /^final standings \(3 rounds settled\)$/)).toBe(1);
      expect(run.stdout.trimEnd().split("\n").pop()).toMatch(/^event log: \d+ events, digest [0-9a-f]{64}$/);
    }
    expect(count(quiet.stdout, /^standings after/)).toBe(0);
    expect(count(verbose.stdout, /^standings after exped_\d+ settled$/)).toBe(3);
    const extra = verbose.stdout.split("\n").length - quiet.stdout.split("\n").length;
    expect(extra).toBeGreaterThan(30);
    expect(quiet.stdout.split("\n").length).toBeLessThan(60);
    expect(quiet.stdout.trimEnd().split("\n").pop()).toBe(verbose.stdout.trimEnd().split("\n").pop());
  });

  requires("python").it("keeps a Python strategy's prints in a log file of its own, named on stderr before the replay", async () => {
    const strategy = fileURLToPath(new URL("../fixtures/backtest/hangs.py", import.meta.url));
    const base = smallScenario();
    const agents = [...base.agents.slice(0, 2), { name: "py", key: "key-py-000000008", strategy, params: { hang_from: 1000 } }];
    const withPython = join(dir, "python.json");
    writeFileSync(withPython, JSON.stringify({ name: "python", seed: base.seed, dataset: base.dataset, calendar: base.calendar, agents }));
    const run = await basecamp(["run", withPython], {}, dir);
    expect(run.status).toBe(0);
    const logs = /^logs: each Python strategy's stdout and stderr go to (\S+)\/<agent>\.log$/m.exec(run.stderr);
    expect(logs, run.stderr).not.toBeNull();
    const log = readFileSync(join(dir, logs![1], "py.log"), "utf8");
    expect(log).toMatch(/^fit on \d+ rows\npredict call 1\npredict call 2\n/);
  });
});
