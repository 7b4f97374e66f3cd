import { findPython } from "../data/python-interpreter.js";
import { interpreterFacts, NAMED_PACKAGES, type InterpreterFacts } from "./interpreter-facts.js";
import { localSandbox, probeSandbox } from "./isolation.js";
import { sandboxPython } from "./sandbox-python.js";

/**
 * The one line a command that runs Python prints first: the interpreter, its Python version, its
 * packages' versions (lightgbm only where importable), and whether it runs sandboxed, e.g.
 * `python: /usr/bin/python3 (Python 3.11.2; pandas 1.5.3, numpy 1.24.2, cloudpickle 2.2.0) sandboxed (bubblewrap)`.
 */
export function bannerLine(path: string, facts: InterpreterFacts, sandbox: { ok: true } | { ok: false; reason: string }): string {
  const packages = NAMED_PACKAGES.flatMap((name) => {
    const version = facts.packages[name];
    if (version) return [`${name} ${version}`];
    return name === "lightgbm" ? [] : [`no ${name}`];
  });
  const how = sandbox.ok ? "sandboxed (bubblewrap)" : `not sandboxed: ${sandbox.reason}`;
  return `python: ${path} (Python ${facts.python}; ${packages.join(", ")}) ${how}`;
}

/**
 * The banner for this process's Python: `local` for a command running the user's own files (its
 * `--no-sandbox`, else the sandbox where this machine has one), `served` for `serve` (sandboxed
 * unless `trusted`, its --trust-model-files). An error is one line naming the interpreter and the
 * module it lacks, for the command to stop on before it starts.
 */
export async function interpreterBanner(mode: "local" | { served: { trusted: boolean } }): Promise<{ ok: true; line: string } | { ok: false; error: string }> {
  const sandbox = mode === "local" ? await localSandbox() : mode.served.trusted ? { ok: false as const, reason: "--trust-model-files" } : await probeSandbox();
  if (sandbox.ok) {
    const python = await sandboxPython();
    return python.ok ? { ok: true, line: bannerLine(python.path, python.facts, sandbox) } : python;
  }
  const found = await findPython();
  if (!found.ok) return found;
  const probed = await interpreterFacts(found.path);
  return probed.ok ? { ok: true, line: bannerLine(found.path, probed.facts, sandbox) } : probed;
}
