import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { deploymentFaultNames, faultNames } from "../src/contract/faults.js";
import { aggregate, clip, deploymentAgentSchema, deploymentSchema, scoringSchema, weights } from "../src/contract/deployment.js";
import { strategyByName } from "./agents/registry.js";
import { strategyFileKind } from "./agents/strategy-file.js";

/**
 * A scenario is data: the deployment's settings (a seed, the dataset's size, the calendar, the live
 * scoring settings, the deployment's limits, faults to inject: src/contract/deployment.ts), the
 * organiser's scripted actions, and the agents with their strategies. Files are validated here; an
 * error names the path of the bad field and what was expected.
 */

/** A change to the live settings: only what it names changes (no defaults fill the rest). */
const scoringChangeSchema = z.strictObject({ weights: weights.optional(), clip: clip.optional(), aggregate: aggregate.optional() });

const agentSchema = deploymentAgentSchema.extend({
  /** A built-in strategy's name, or a file's path relative to the scenario file (.py, .pkl, .ts/.js/.mjs, .csv/.parquet). */
  strategy: z.string(),
  params: z.record(z.string(), z.unknown()).default({}),
  /** A Python or model-file strategy: CPU seconds its fit(train) may use (default 600). */
  fit_timeout_seconds: z.number().positive().max(86_400).optional(),
  /** A Python or model-file strategy: CPU seconds one predict may use (default 60). */
  predict_timeout_seconds: z.number().positive().max(3600).optional(),
});

/** A fault switched on or off mid-replay; `round` for a round fault, none for diagnostics_maintenance and compute_paused. */
const faultChangeSchema = z.strictObject({
  fault: z.enum(faultNames),
  round: z.int().min(1).optional(),
  on: z.boolean(),
});

/** An organiser action at a simulated instant: change the live scoring settings, or toggle a fault. */
const actionSchema = z.union([
  z.strictObject({ at: z.iso.datetime(), set_scoring: scoringChangeSchema }),
  z.strictObject({ at: z.iso.datetime(), set_fault: faultChangeSchema }),
]);

const { seed, kind, dataset, calendar, event, scoring, organiser_key, rate_limit, gate, faults, staking, auto_submit } = deploymentSchema.shape;

/** The deployment's settings (src/contract/deployment.ts), the organiser's scripted actions, and the agents with their strategies. */
export const scenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(""),
  seed,
  kind,
  dataset,
  calendar,
  event,
  scoring,
  organiser_key,
  rate_limit,
  gate,
  actions: z.array(actionSchema).default([]),
  faults,
  staking,
  auto_submit,
  agents: z.array(agentSchema).min(1),
});

export type Scenario = z.infer<typeof scenarioSchema>;

export type ScenarioAgent = Scenario["agents"][number];
export type ScoringSettingsInput = z.infer<typeof scoringSchema>;

export class ScenarioError extends Error {}

/**
 * Validates parsed JSON; the error lists each bad field as `path: what was expected`. A relative
 * `dataset.dir` and a file strategy's path are made absolute against `baseDir` (the scenario file's directory when loaded).
 */
export function parseScenario(raw: unknown, source = "scenario", baseDir = "."): Scenario {
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new ScenarioError(`${source} is not a valid scenario: ${issues.join("; ")}`);
  }
  const scenario = result.data;
  if (scenario.dataset.dir !== undefined) scenario.dataset.dir = resolve(baseDir, scenario.dataset.dir);
  for (const agent of scenario.agents) if (strategyFileKind(agent.strategy) !== null) agent.strategy = resolve(baseDir, agent.strategy);
  if (scenario.kind === "tournament" && !scenario.calendar) {
    throw new ScenarioError(`${source}: calendar: a tournament scenario needs a calendar`);
  }
  if (scenario.kind === "event" && !scenario.event) {
    throw new ScenarioError(`${source}: event: an event scenario needs an event block`);
  }
  const finalRounds = scenario.event?.final_window?.rounds;
  if (scenario.event && finalRounds !== undefined && finalRounds > scenario.event.n_rounds) {
    throw new ScenarioError(`${source}: event.final_window.rounds: ${finalRounds} final rounds, but the event has ${scenario.event.n_rounds}`);
  }
  if (scenario.kind === "event" && scenario.auto_submit) {
    throw new ScenarioError(`${source}: auto_submit: the auto-submit lane needs a tournament scenario`);
  }
  const nRounds = (scenario.calendar ?? scenario.event)?.n_rounds ?? 0;
  for (const [i, action] of scenario.actions.entries()) {
    if (!("set_fault" in action)) continue;
    const { fault, round } = action.set_fault;
    const where = `${source}: actions[${i}].set_fault.round`;
    const wide = (deploymentFaultNames as readonly string[]).includes(fault);
    if (wide && round !== undefined) throw new ScenarioError(`${where}: ${fault} is not tied to a round`);
    if (!wide && (round === undefined || round > nRounds)) {
      throw new ScenarioError(`${where}: ${fault} needs a round number from 1 to ${nRounds}`);
    }
  }
  if (scenario.kind === "event" && scenario.staking) {
    throw new ScenarioError(`${source}: staking: tournament staking needs a tournament scenario`);
  }
  const seen = new Set<string>();
  for (const [i, agent] of scenario.agents.entries()) {
    if (seen.has(agent.name)) throw new ScenarioError(`${source}: agents[${i}].name: '${agent.name}' is used twice`);
    seen.add(agent.name);
  }
  const keys = new Set<string>();
  for (const [i, agent] of scenario.agents.entries()) {
    if (keys.has(agent.key)) throw new ScenarioError(`${source}: agents[${i}].key: the key is used twice`);
    keys.add(agent.key);
  }
  for (const [i, agent] of scenario.agents.entries()) {
    const problem = strategyProblem(agent, scenario.kind);
    if (problem?.field === "strategy") throw new ScenarioError(`${source}: agents[${i}].strategy: ${problem.message}`);
    if (problem) throw new ScenarioError(`${source} is not a valid scenario: ${problem.issues.map((issue) => `agents[${i}].params${issue}`).join("; ")}`);
  }
  return scenario;
}

/**
 * What is wrong with an agent's strategy in a scenario of `kind`, known before it loads: a
 * built-in's name, kind and params (each params issue as its path, e.g. ".lambda: …"), a file's
 * kind; null when nothing is (a module declares its own kind and parameters: checked as it loads).
 */
export function strategyProblem(
  agent: { strategy: string; params?: unknown },
  kind: "tournament" | "event",
): { field: "strategy"; message: string } | { field: "params"; issues: string[] } | null {
  const file = strategyFileKind(agent.strategy);
  if (file === "module") return null;
  if (file !== null) return kind === "tournament" ? null : { field: "strategy", message: `a ${file} strategy plays tournaments, and this scenario is an event` };
  let strategy;
  try {
    strategy = strategyByName(agent.strategy);
  } catch (e) {
    return { field: "strategy", message: (e as Error).message };
  }
  if (strategy.kind !== kind) return { field: "strategy", message: `'${agent.strategy}' plays ${strategy.kind}s, and this scenario is ${kind === "event" ? "an event" : "a tournament"}` };
  const params = strategy.params.safeParse(agent.params);
  if (params.success) return null;
  return { field: "params", issues: params.error.issues.map((issue) => `${issue.path.length ? `.${formatPath(issue.path)}` : ""}: ${issue.message}`) };
}

/** Reads and validates a scenario file; its relative paths are taken relative to the file. */
export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ScenarioError(`cannot read scenario ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(jsonSyntaxError(path, text, e as Error));
  }
  return parseScenario(raw, path, dirname(path));
}

/** `file:line:column: not JSON: what`, the place computed from the parser's character position. */
function jsonSyntaxError(path: string, text: string, e: Error): string {
  const before = text.slice(0, errorOffset(text, e.message)).split("\n");
  const what = e.message.replace(/ (in JSON )?at position \d+.*$/, "").replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
  return `${path}:${before.length}:${before[before.length - 1].length + 1}: not JSON: ${what}`;
}

/**
 * Where JSON.parse gave up: the position its message names, else (an "Unexpected token" names
 * none) the end of the shortest prefix that cannot be the start of a JSON text, found by halving.
 */
function errorOffset(text: string, message: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const viable = (n: number) => {
    try {
      JSON.parse(text.slice(0, n));
      return true;
    } catch (e) {
      const m = (e as Error).message;
      return m === "Unexpected end of JSON input" || new RegExp(`at position ${n}\\b`).test(m);
    }
  };
  let [good, bad] = [0, text.length];
  if (viable(bad)) return bad;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (viable(mid)) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

function formatPath(path: PropertyKey[]): string {
  if (path.length === 0) return "(top level)";
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}
