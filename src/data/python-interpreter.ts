import { execFile } from "node:child_process";
import { join } from "node:path";

/** The modules a predict run needs in its interpreter. */
export const PREDICT_MODULES = ["cloudpickle", "pandas"] as const;

/** Where an interpreter choice came from, in the order they are tried. */
export type InterpreterSource = "--python" | "BASECAMP_PYTHON" | "VIRTUAL_ENV" | "CONDA_PREFIX" | "PATH" | "system";

/** The environment the choice reads (process.env and the command's --python). */
export interface InterpreterEnv {
  flag?: string;
  BASECAMP_PYTHON?: string;
  VIRTUAL_ENV?: string;
  CONDA_PREFIX?: string;
}

/**
 * The interpreters to try, in order: `--python PATH`, `BASECAMP_PYTHON`, the activated venv
 * (`VIRTUAL_ENV`), the activated conda env (`CONDA_PREFIX`); the first of those that is set is
 * the only one (the user's choice is never swapped for another). With none set: `python3` on PATH,
 * then `/usr/bin/python3`, the first that has PREDICT_MODULES.
 */
export function interpreterCandidates(env: InterpreterEnv): { path: string; source: InterpreterSource }[] {
  if (env.flag) return [{ path: env.flag, source: "--python" }];
  if (env.BASECAMP_PYTHON) return [{ path: env.BASECAMP_PYTHON, source: "BASECAMP_PYTHON" }];
  if (env.VIRTUAL_ENV) return [{ path: join(env.VIRTUAL_ENV, "bin", "python"), source: "VIRTUAL_ENV" }];
  if (env.CONDA_PREFIX) return [{ path: join(env.CONDA_PREFIX, "bin", "python"), source: "CONDA_PREFIX" }];
  return [
    { path: "python3", source: "PATH" },
    { path: "/usr/bin/python3", source: "system" },
  ];
}

export type Interpreter = { ok: true; path: string; source: InterpreterSource } | { ok: false; error: string };

let flag: string | undefined;
let found: Promise<Interpreter> | null = null;

/** The command's `--python PATH`: it comes before every other choice (set before the first findPython; choosing it again keeps the probe made). */
export function choosePython(path: string | undefined): void {
  if (found !== null && path === flag) return;
  flag = path;
  found = null;
}

/**
 * The Python that runs participants' code (interpreterCandidates' order). Probed once per
 * process; an answer naming the interpreter and the module it lacks when none fits.
 */
export function findPython(): Promise<Interpreter> {
  found ??= probeAll();
  return found;
}

/**
 * The one interpreter findPython() can answer with, where the choice names one (`--python`,
 * BASECAMP_PYTHON, an activated venv or conda env), else null (python3 on PATH, then the system's):
 * for a caller to start inspecting it while findPython probes it.
 */
export function namedPython(): string | null {
  const candidates = currentCandidates();
  return candidates.length === 1 ? candidates[0].path : null;
}

function currentCandidates(): { path: string; source: InterpreterSource }[] {
  const { BASECAMP_PYTHON, VIRTUAL_ENV, CONDA_PREFIX } = process.env;
  return interpreterCandidates({ flag, BASECAMP_PYTHON, VIRTUAL_ENV, CONDA_PREFIX });
}

async function probeAll(): Promise<Interpreter> {
  const candidates = currentCandidates();
  const misses: string[] = [];
  for (const { path, source } of candidates) {
    const miss = await probe(path);
    if (miss === null) return { ok: true, path, source };
    misses.push(`${path}: ${miss}`);
  }
  const chosen = candidates.length === 1 ? candidates[0].source : null;
  const how = chosen ? `it was chosen by ${chosen}; choose another with --python or BASECAMP_PYTHON` : "choose one that can with --python or BASECAMP_PYTHON";
  return {
    ok: false,
    error: `no Python interpreter can run the model: it needs ${PREDICT_MODULES.join(" and ")} (${misses.join("; ")}); ${how}`,
  };
}

/**
 * Python that exits with `ModuleNotFoundError: No module named '<name>'` (as importing it would) for
 * the first of `modules` its import system cannot find, without importing them: finding pandas
 * takes milliseconds, importing it half a second, and every command that runs Python waits on
 * this before it starts its workers (which import them anyway, and say so if they cannot).
 */
export function findModules(modules: readonly string[]): string {
  return [
    "import importlib.util",
    `for name in ${JSON.stringify(modules)}:`,
    "    if importlib.util.find_spec(name) is None:",
    `        raise ModuleNotFoundError(f"No module named '{name}'")`,
  ].join("\n");
}

/** Null when `path` has every one of PREDICT_MODULES, else why not (the missing module by name). */
function probe(path: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(path, ["-c", findModules(PREDICT_MODULES)], { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve(null);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolve("not found");
      const last = stderr.trim().split("\n").pop();
      resolve(last || error.message);
    });
  });
}
