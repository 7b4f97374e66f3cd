import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { strategyFileKind } from "../agents/strategy-file.js";
import { scenarioFile } from "../builtin-scenarios.js";
import type { Sweep } from "./sweep-file.js";

/** A scenario file beside the sweep file, else a built-in scenario's name (throws naming both when neither is). */
export function scenarioPath(arg: string, dir: string): string {
  const path = resolve(dir, arg);
  return existsSync(path) ? path : scenarioFile(arg);
}

/**
 * Refuses a sweep naming a file that is not there (a scenario, a strategy file, a dataset
 * directory, each read against the sweep's directory), naming each such field: a typo is met
 * before any cell runs, rather than failing every cell that names it.
 */
export function checkNamedFiles(file: string, sweep: Sweep): void {
  const { base, axes, dir } = sweep;
  const problems: string[] = [];
  const check = (field: string, problem: string | null) => problem !== null && problems.push(`${field}: ${problem}`);
  const scenario = (arg: string) => {
    try {
      scenarioPath(arg, dir);
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  const strategy = (arg: string) => (strategyFileKind(arg) !== null && !isFile(resolve(dir, arg)) ? `${arg}: no such file` : null);
  const dataset = (fields: Record<string, unknown> | undefined) => {
    const d = fields?.dir;
    return typeof d === "string" && !isDirectory(resolve(dir, d)) ? `${d}: no such directory` : null;
  };
  check("base.scenario", scenario(base.scenario));
  axes.scenarios?.forEach((s, i) => check(`axes.scenarios.${i}`, scenario(s)));
  // A base field every cell's axis value replaces is never used, so never checked.
  if (base.strategy !== undefined && !axes.strategies) check("base.strategy", strategy(base.strategy));
  base.against.forEach((s, i) => check(`base.against.${i}`, strategy(s)));
  axes.strategies?.forEach((s, i) => check(`axes.strategies.${i}`, strategy(s)));
  if (!axes.datasets?.every((d) => typeof d.dir === "string")) check("base.dataset.dir", dataset(base.dataset));
  axes.datasets?.forEach((d, i) => check(`axes.datasets.${i}.dir`, dataset(d)));
  if (problems.length > 0) throw new Error(`${file}: ${problems.join("; ")}`);
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
