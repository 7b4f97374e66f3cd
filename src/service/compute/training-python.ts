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
  return jobIsolation(model, await modelIsolation(ctx));
}

/** A kind's job's isolation where the deployment runs model files under `models`. */
const jobIsolation = (model: TrainedModel, models: Isolation): Isolation => (model === "custom" ? "sandbox" : models);

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
  const models = await modelIsolation(ctx);
  const why = await untrainable(model, models);
  if (why === null) return;
  const others = MODEL_NAMES.filter((m) => m !== model);
  const trainable = await Promise.all(others.map(async (m) => ((await untrainable(m, models)) === null ? [m] : [])));
  throw refuse("train_model_unsupported", { model, reason: why, trained: trainable.flat().join(", ") });
}

/**
 * Null when `model` can train on a deployment that runs model files under `models`, else why not:
 * no Python for its job, or a module its job's interpreter cannot import.
 */
export async function untrainable(model: TrainedModel, models: Isolation): Promise<string | null> {
  if (KIND_MODULES[model].length === 0) return null;
  const python = jobIsolation(model, models) === "sandbox" ? await sandboxPython() : await findPython();
  if (!python.ok) return `no Python can train it: ${python.error}`;
  return missingModule(python.path, KIND_MODULES[model]);
}

/** Null when `python` imports every one of `modules`, else why the first it cannot does not. */
async function missingModule(python: string, modules: string[]): Promise<string | null> {
  for (const module of modules) {
    const why = await cannotImport(python, module);
    if (why !== null) return why;
  }
  return null;
}

const probes = new Map<string, Promise<string | null>>();
/** How long an import may take before the interpreter is taken not to have the module (a cold scikit-learn imports in about a second). */
const PROBE_TIMEOUT_MS = 60_000;

/** Null when `python` imports `module`, else why not; probed once per interpreter and module. */
function cannotImport(python: string, module: string): Promise<string | null> {
  const key = `${python}\0${module}`;
  let probe = probes.get(key);
  if (probe === undefined) {
    probe = new Promise((resolve) => {
      execFile(python, ["-c", `import ${module}`], { timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
        if (!error) return resolve(null);
        if (error.killed) return resolve(`the training interpreter ${python} did not import ${module} within ${PROBE_TIMEOUT_MS / 1000} s`);
        const last = stderr.trim().split("\n").pop() || error.message.split("\n")[0];
        resolve(`the training interpreter ${python} cannot import ${module} (${last})`);
      });
    });
    probes.set(key, probe);
  }
  return probe;
}
