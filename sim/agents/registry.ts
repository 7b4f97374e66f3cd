import { autoSubmitStrategies } from "./auto-submit.js";
import { builtinStrategies } from "./builtin.js";
import { computeStrategies } from "./hosted-trainer.js";
import { eventStrategies } from "./event-builtin.js";
import { machineStrategies } from "./hosted-machine.js";
import { staker } from "./staker.js";
import type { Strategy } from "./strategy.js";

/** Strategies by name: a scenario names one and gives its parameters. */
const all = [...builtinStrategies, staker, ...autoSubmitStrategies, ...eventStrategies, ...computeStrategies, ...machineStrategies];
const registry = new Map<string, Strategy<any>>(all.map((s) => [s.name, s]));

export function strategyNames(): string[] {
  return [...registry.keys()];
}

export function strategyByName(name: string): Strategy<any> {
  const s = registry.get(name);
  if (!s) throw new Error(`unknown strategy '${name}' (built-in: ${strategyNames().join(", ")})`);
  return s;
}

export function listStrategies(): { name: string; kind: string; summary: string }[] {
  return all.map((s) => ({ name: s.name, kind: s.kind, summary: s.summary }));
}
