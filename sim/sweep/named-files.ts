import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { strategyFileKind } from "../agents/strategy-file.js";
import { scenarioFile } from "../builtin-scenarios.js";
import type { Sweep } from "./sweep-file.js";

/*
 * The files a sweep file names (scenarios, strategy files, dataset directories): how each is
 * found from the sweep file's directory (planCells, planIdentity), and that each is there.
 */

/** A strategy file's absolute path against the sweep file's directory, or a built-in's name as it is. */
export function strategyPath(strategy: string, dir: string): string {
  return strategyFileKind(strategy) === null ? strategy : resolve(dir, strategy);
}

/** Dataset fields with a relative `dir` made absolute against the sweep file's directory. */
export function datasetFields(fields: Record<string, unknown>, dir: string): Record<string, unknown> {
  return typeof fields.dir === "string" ? { ...fields, dir: resolve(dir, fields.dir) } : { ...fields };
}

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
  const strategy = (arg: string) => (strategyFileKind(arg) !== null && !isFile(strategyPath(arg, dir)) ? `${arg}: no such file` : null);
  const dataset = (fields: Record<string, unknown> | undefined) => {
    if (typeof fields?.dir !== "string") return null;
    return isDirectory(datasetFields(fields, dir).dir as string) ? null : `${fields.dir}: no such directory`;
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
