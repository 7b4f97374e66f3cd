import { builtinStrategies } from "./builtin.js";
import type { Strategy } from "./strategy.js";

/** Strategies by name: a scenario names one and gives its parameters. */
const registry = new Map<string, Strategy<any>>(builtinStrategies.map((s) => [s.name, s]));

export function strategyNames(): string[] {
  return [...registry.keys()];
}

export function strategyByName(name: string): Strategy<any> {
  const s = registry.get(name);
  if (!s) throw new Error(`unknown strategy '${name}' (built-in: ${strategyNames().join(", ")})`);
  return s;
}

export function listStrategies(): { name: string; summary: string }[] {
  return builtinStrategies.map((s) => ({ name: s.name, summary: s.summary }));
}
