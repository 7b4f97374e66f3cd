import { resolve } from "node:path";
import { parseScenario, type Scenario } from "../../sim/scenario.js";
import { roundsFromLive } from "../data/dataset-dir.js";
import type { World } from "../service/kernel/deployment.js";

/** `--data DIR` and the flags that name its defaults. */
export interface DataFlags {
  data?: string;
  target?: string;
  core?: string;
  prefix?: string;
}

/**
 * The scenario `--data DIR` backtests on: `base`'s seed, scoring and calendar over the dataset
 * directory (the service's file layout, src/data/dataset-dir.ts), with one round, so that (when
 * live.parquet carries no target) a single validation exped is held out as the service's round
 * and all the others are walked. Without `--data`, `--target`, `--core` and `--prefix` are errors.
 */
export function dataScenario(base: Scenario, flags: DataFlags): Scenario {
  if (flags.data === undefined) {
    const stray = (["target", "core", "prefix"] as const).find((k) => flags[k] !== undefined);
    if (stray) throw new Error(`--${stray} names a setting of --data DIR, and no --data was given`);
    return base;
  }
  if (base.kind !== "tournament") throw new Error(`--data: the scenario '${base.name}' is an event; --data takes a tournament scenario's scoring and calendar`);
  const dataset = {
    dir: resolve(flags.data),
    ...(flags.target !== undefined ? { target: flags.target } : {}),
    ...(flags.core !== undefined ? { core_features: flags.core.split(",").map((s) => s.trim()).filter(Boolean) } : {}),
    ...(flags.prefix !== undefined ? { prefix: flags.prefix } : {}),
  };
  return parseScenario({ ...base, dataset, calendar: { ...base.calendar, n_rounds: 1 } }, "--data");
}

/** What `--data` backtests on, the defaults it chose where the flags were silent among them: the scored target, the benchmark prefix, the core features, the rounds held out. */
export function dataDefaults(dir: string, world: World, flags: DataFlags, train: "read" | "unneeded" | "workers"): string {
  const { dataset } = world;
  const chosen = (flag: "target" | "prefix" | "core") => (flags[flag] !== undefined ? `--${flag}` : `default; --${flag} to choose`);
  const targets = Object.keys(dataset.train.columns).filter((c) => c.startsWith("target"));
  const held = dataset.rounds.map((r) => r.exped);
  const fromLive = roundsFromLive(dataset);
  const unread = {
    read: [],
    unneeded: ["  train split: not read (nothing in this backtest fits on it)"],
    workers: ["  train split: read from train.parquet by each Python strategy's worker (pandas), not sent to it"],
  }[train];
  return [
    `data: ${dir}`,
    `  scored target: ${dataset.target} (${chosen("target")}; the file's targets: ${targets.join(", ")})`,
    `  benchmark prefix: ${dataset.spec.prefix} (${chosen("prefix")})`,
    `  core features: ${dataset.core_features.length ? dataset.core_features.join(", ") : "none, so NCORR equals CORR"} (${chosen("core")})`,
    fromLive
      ? `  rounds held out: none (the service's round is live.parquet's ${held.join(", ")}); every validation exped is walked`
      : `  rounds held out: ${held.length} (validation's last exped, ${held.join(", ")}, the service's round: not walked)`,
    ...unread,
  ].join("\n");
}
