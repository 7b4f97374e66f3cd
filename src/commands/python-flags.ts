import type { Command } from "commander";
import { resolve } from "node:path";
import { choosePython } from "../data/python-interpreter.js";
import { interpreterBanner } from "../participant/interpreter-banner.js";
import { declineSandbox, type Isolation } from "../participant/isolation.js";
import { untrainedKinds } from "../../sim/requirements.js";
import type { Scenario } from "../../sim/scenario.js";

/** `--python PATH`, and for a local command `--no-sandbox` (commander's `sandbox: false`). */
export interface PythonFlags {
  python?: string;
  sandbox?: boolean;
}

/** Adds `--python` to a command that runs Python, and `--no-sandbox` where it runs the user's own files. */
export function pythonOptions(command: Command, local: boolean): Command {
  command.option("--python <path>", "the Python interpreter to run strategies and model files (before BASECAMP_PYTHON, an activated venv or conda env, then python3)");
  if (local) command.option("--no-sandbox", "run your own Python files as you, outside the bubblewrap sandbox");
  return command;
}

/** Applies the flags before anything probes the interpreter. */
export function applyPythonFlags(flags: PythonFlags): void {
  choosePython(flags.python === undefined ? undefined : resolve(flags.python));
  if (flags.sandbox === false) declineSandbox("--no-sandbox");
}

/**
 * Prints the interpreter's one line on stderr (never stdout: `--json` and MCP's stdio stay clean)
 * when something in `uses` runs Python. Where there is no interpreter to name, nothing: the
 * command's own preflight stops it with one line naming what needs Python and the module missing.
 */
export async function announcePython(uses: string[], mode: Parameters<typeof interpreterBanner>[0]): Promise<void> {
  if (uses.length === 0) return;
  const banner = await interpreterBanner(mode);
  if (banner.ok) process.stderr.write(`basecamp: ${banner.line}\n`);
}

/** Prints on stderr, one line each, the kinds the scenario's hosted trainers ask for that this machine cannot train, model files running under `models` (untrainedKinds). */
export async function announceUntrainedKinds(scenario: Scenario, models: Isolation): Promise<void> {
  for (const line of await untrainedKinds(scenario, models)) process.stderr.write(`basecamp: ${line}\n`);
}
