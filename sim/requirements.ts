import { basename } from "node:path";
import { findPython } from "../src/data/python-interpreter.js";
import { MODEL_NAMES, type TrainedModel } from "../src/service/compute/model-kinds.js";
import type { Isolation } from "../src/participant/isolation.js";
import { untrainable } from "../src/service/compute/training-python.js";
import { runsInPythonWorker } from "./agents/strategy-file.js";
import type { Scenario } from "./scenario.js";

/**
 * Built-in strategies that run Python: a model file on the auto-submit lane, the hosted trainer's
 * own predict, and the hosted machine's sandboxed commands.
 */
const PYTHON_STRATEGIES = new Set(["auto_submitter", "auto_then_manual", "hosted_trainer", "hosted_machine"]);

/** How to get what the model-file features need, on Debian/Ubuntu. */
const PYTHON_INSTALL = "sudo apt-get install python3-pandas python3-numpy python3-cloudpickle";

/**
 * What in a scenario runs Python when its agents play it (run, backtest, serve --with-agents):
 * agents whose strategy is a .py or .pkl file or one of PYTHON_STRATEGIES (through the auto-submit
 * lane or hosted compute), and an event's hosted compute. Empty: Node alone will do.
 */
export function pythonUses(scenario: Scenario): string[] {
  const agents = scenario.agents
    .filter((a) => PYTHON_STRATEGIES.has(a.strategy) || runsInPythonWorker(a.strategy))
    .map((a) => `${a.name} (${basename(a.strategy)})`);
  return [...(agents.length ? [`agent${agents.length > 1 ? "s" : ""} ${agents.join(", ")}`] : []), ...(scenario.event?.compute ? [COMPUTE] : [])];
}

/** What a served scenario runs in Python for any agent that uploads a model file: a tournament's auto-submit lane, an event's hosted compute. */
export function servedPythonLanes(scenario: Scenario): string[] {
  return [...(scenario.kind === "tournament" ? ["the auto-submit lane"] : []), ...(scenario.event?.compute ? [COMPUTE] : [])];
}

const COMPUTE = "hosted compute (event.compute)";

/** Null when `uses` is empty or an interpreter with the modules is found; else one line naming what needs Python, what is missing and how to install it. */
export async function missingPython(name: string, uses: string[]): Promise<string | null> {
  if (uses.length === 0) return null;
  const python = await findPython();
  if (python.ok) return null;
  return `${name} needs Python for ${uses.join(" and ")}: ${python.error} (${PYTHON_INSTALL})`;
}

/** Throws `missingPython`'s line, for a replay that cannot start without Python. */
export async function requirePython(name: string, uses: string[]): Promise<void> {
  const missing = await missingPython(name, uses);
  if (missing) throw new Error(missing);
}

/** Throws when the scenario's agents need Python (pythonUses) and there is none: before a replay's first step. */
export function requireScenarioPython(scenario: Scenario): Promise<void> {
  return requirePython(scenario.name, pythonUses(scenario));
}

/**
 * One line per kind the scenario's hosted trainers ask for that this machine cannot train, on a
 * deployment running model files under `models` (training-python.ts' untrainable: its job's
 * interpreter lacks a module), naming the agents and why: the service refuses those launches (400
 * train_model_unsupported), which the standings alone would not show. Empty without an
 * interpreter: requireScenarioPython has said so.
 */
export async function untrainedKinds(scenario: Scenario, models: Isolation): Promise<string[]> {
  if (!(await findPython()).ok) return [];
  // Each kind asked for, and who asks (a hosted trainer's model is ridge unless its params say; a kind the service does not know it refuses anyway).
  const askers = new Map<TrainedModel, string[]>();
  for (const a of scenario.agents) {
    const model = (a.params as { model?: unknown } | undefined)?.model ?? "ridge";
    if (a.strategy !== "hosted_trainer" || !isTrainedModel(model)) continue;
    askers.set(model, [...(askers.get(model) ?? []), a.name]);
  }
  const lines = await Promise.all(
    [...askers].map(async ([kind, agents]) => {
      const why = await untrainable(kind, models);
      return why === null ? [] : [`hosted compute does not train ${kind} here (agent${agents.length > 1 ? "s" : ""} ${agents.join(", ")}): ${why}; its launches are refused (400 train_model_unsupported)`];
    }),
  );
  return lines.flat();
}

function isTrainedModel(model: unknown): model is TrainedModel {
  return (MODEL_NAMES as readonly unknown[]).includes(model);
}
