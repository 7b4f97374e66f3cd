import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { basecamp } from "../helpers/cli.js";
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
});
