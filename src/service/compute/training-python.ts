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
 * The modules train_job.py imports to train each kind (ridge trains in TypeScript): every Python
 * kind reports scikit-learn's version with its model, and xgboost and lightgbm need their own.
 */
export const KIND_MODULES: Record<TrainedModel, string[]> = {
  ridge: [],
  random_forest: ["sklearn"],
  mlp: ["sklearn"],
  custom: ["sklearn"],
  xgboost: ["sklearn", "xgboost"],
  lightgbm: ["sklearn", "lightgbm"],
};

/**
 * Refuses a kind (400) whose modules the interpreter its job would train in cannot import, saying
 * which and naming the kinds this deployment does train: Debian does not package LightGBM, so a
 * deployment on Debian's python3 refuses it, and one whose Python is a venv holding it
 * (BASECAMP_PYTHON) trains it like the other kinds; one without scikit-learn trains only ridge.
 */
export async function requireTrainable(ctx: ServiceContext, model: TrainedModel): Promise<void> {
  const why = await untrainable(ctx, model);
  if (why === null) return;
  const others = MODEL_NAMES.filter((m) => m !== model);
  const trainable = await Promise.all(others.map(async (m) => ((await untrainable(ctx, m)) === null ? [m] : [])));
  throw refuse("train_model_unsupported", { model, reason: why, trained: trainable.flat().join(", ") });
}

/** Null when `model` can train here, else why not: no Python for its job, or a module it cannot import. */
async function untrainable(ctx: ServiceContext, model: TrainedModel): Promise<string | null> {
  if (KIND_MODULES[model].length === 0) return null;
  const isolation = await trainingIsolation(ctx, model);
  const python = isolation === "sandbox" ? await sandboxPython() : await findPython();
  if (!python.ok) return `no Python can train it: ${python.error}`;
  return missingModule(python.path, KIND_MODULES[model]);
}

/** Null when `python` imports every one of `modules`, else why the first it cannot does not. */
export async function missingModule(python: string, modules: string[]): Promise<string | null> {
  for (const module of modules) {
    const why = await cannotImport(python, module);
    if (why !== null) return why;
  }
  return null;
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
