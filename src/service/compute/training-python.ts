import { execFile } from "node:child_process";
import { refuse } from "../../domain/errors.js";
import { findPython } from "../../data/python-interpreter.js";
import type { Isolation } from "../../participant/isolation.js";
import { sandboxPython } from "../../participant/sandbox-python.js";
import { modelIsolation } from "../kernel/model-isolation.js";
import type { ServiceContext } from "../kernel/context.js";
import { MODEL_NAMES, type TrainedModel } from "./model-kinds.js";

/**
 * How a job's fit runs. custom_model_fn is a participant's code: always in the sandbox. A built-in
 * kind runs only Basecamp's train_job.py on the deployment's own data, so it runs as the deployment
 * runs model files (ctx.modelIsolation: `serve` sandboxes them unless --trust-model-files; a local
 * run on a machine without bubblewrap runs them trusted).
 */
export async function trainingIsolation(ctx: ServiceContext, model: TrainedModel): Promise<Isolation> {
  return model === "custom" ? "sandbox" : await modelIsolation(ctx);
}

/**
 * Refuses lightgbm (400) where the interpreter a lightgbm job would train in cannot import it,
 * saying so: Debian does not package LightGBM, so a deployment on Debian's python3 refuses it, and
 * one whose Python is a venv holding it (BASECAMP_PYTHON) trains it like the other kinds.
 */
export async function requireTrainable(ctx: ServiceContext, model: TrainedModel): Promise<void> {
  if (model !== "lightgbm") return;
  const isolation = await trainingIsolation(ctx, model);
  const python = isolation === "sandbox" ? await sandboxPython() : await findPython();
  const why = python.ok ? await cannotImport(python.path, model) : `no Python can train it: ${python.error}`;
  if (why === null) return;
  throw refuse("train_model_unsupported", { model, reason: why, trained: MODEL_NAMES.filter((m) => m !== model).join(", ") });
}

const probes = new Map<string, Promise<string | null>>();

/** Null when `python` imports `module`, else why not; probed once per interpreter and module. */
function cannotImport(python: string, module: string): Promise<string | null> {
  const key = `${python}\0${module}`;
  let probe = probes.get(key);
  if (probe === undefined) {
    probe = new Promise((resolve) => {
      execFile(python, ["-c", `import ${module}`], { timeout: 60_000 }, (error, _stdout, stderr) => {
        if (!error) return resolve(null);
        const last = stderr.trim().split("\n").pop() || error.message.split("\n")[0];
        resolve(`the training interpreter ${python} cannot import ${module} (${last})`);
      });
    });
    probes.set(key, probe);
  }
  return probe;
}
