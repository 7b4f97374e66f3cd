import { readFileSync } from "node:fs";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerScoreCommand } from "../../src/commands/score-command.js";

/** `basecamp score` output pinned byte for byte to what the whole-file engine printed (see test/fixtures/score/README.md). */
const fixture = (name: string) => new URL(`../fixtures/score/${name}`, import.meta.url).pathname;

async function run(...args: string[]): Promise<string> {
  const out: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (out.push(String(chunk)), true));
  const program = new Command().exitOverride();
  registerScoreCommand(program);
  await program.parseAsync(["node", "basecamp", "score", ...args]);
  return out.join("");
}

describe("basecamp score, pinned output", () => {
  afterEach(() => vi.restoreAllMocks());

  for (const ext of ["csv", "parquet"]) {
    it(`prints the pinned --json and table for sample.${ext}`, async () => {
      const file = fixture(`sample.${ext}`);
      expect(await run(file, "--core", "feature_a,feature_b", "--json")).toBe(readFileSync(fixture("expected.json"), "utf8"));
      expect(await run(file, "--core", "feature_a,feature_b")).toBe(readFileSync(fixture("expected.txt"), "utf8"));
    });
  }
});
