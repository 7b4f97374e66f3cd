import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageFile } from "../src/package-files.js";

const DIR = packageFile("scenarios");

/** The scenario `serve` and `mcp` run when none is named. */
export const DEFAULT_SCENARIO = "default-tournament";

/** The scenarios shipped with Basecamp: each file of `scenarios/` by its name (the file's, without .json) and its description. */
export function builtinScenarios(): { name: string; description: string }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f.slice(0, -".json".length), description: String(JSON.parse(readFileSync(join(DIR, f), "utf8")).description ?? "") }));
}

/**
 * The file a scenario argument names: a path (against the current directory) when such a file
 * exists, else a built-in scenario's name, so `basecamp run default-event` works from anywhere.
 */
export function scenarioFile(arg: string): string {
  if (existsSync(arg)) return resolve(arg);
  const builtin = join(DIR, `${arg}.json`);
  if (/^[\w-]+$/.test(arg) && existsSync(builtin)) return builtin;
  const names = builtinScenarios().map((s) => s.name).join(", ");
  throw new Error(`${arg}: no such scenario file, nor a built-in scenario of that name (built-in: ${names})`);
}
