import { refuse } from "../../domain/errors.js";

/**
 * The model names the real service trains, and Basecamp too: ridge in TypeScript; random_forest
 * and mlp with scikit-learn, xgboost, lightgbm and custom, each in Python
 * (src/participant/python/train_job.py). lightgbm only where the training interpreter imports it
 * (Debian does not package it): training-python.ts.
 */
export const MODEL_NAMES = ["lightgbm", "xgboost", "ridge", "mlp", "random_forest", "custom"] as const;
export type TrainedModel = (typeof MODEL_NAMES)[number];

/** One hyperparameter: its type, its bounds and its default. */
interface ParamSpec {
  type: "int" | "number" | "int_list";
  min: number;
  max: number;
  /** `min` itself is not allowed (a fraction above 0). */
  above_min?: boolean;
  default: number | number[];
}

const fraction = (d: number): ParamSpec => ({ type: "number", min: 0, max: 1, above_min: true, default: d });

/**
 * Each built-in kind's hyperparameters beside `seed` (which every kind takes). The defaults keep a
 * job on the default event's train split within seconds on one core; the bounds keep a job within
 * the sandbox's limits.
 */
export const KIND_PARAMS: Record<Exclude<TrainedModel, "custom">, Record<string, ParamSpec>> = {
  ridge: { alpha: { type: "number", min: 0, max: Number.MAX_VALUE, default: 1.0 } },
  random_forest: {
    n_estimators: { type: "int", min: 1, max: 500, default: 100 },
    max_depth: { type: "int", min: 1, max: 32, default: 6 },
    min_samples_leaf: { type: "int", min: 1, max: 100_000, default: 20 },
    max_features: fraction(0.5),
  },
  mlp: {
    hidden_layer_sizes: { type: "int_list", min: 1, max: 512, default: [32] },
    alpha: { type: "number", min: 0, max: 100, default: 1e-4 },
    learning_rate_init: { type: "number", min: 0, max: 1, above_min: true, default: 1e-3 },
    max_iter: { type: "int", min: 1, max: 1000, default: 100 },
  },
  xgboost: {
    n_estimators: { type: "int", min: 1, max: 2000, default: 200 },
    max_depth: { type: "int", min: 1, max: 16, default: 4 },
    learning_rate: fraction(0.05),
    subsample: fraction(0.8),
    colsample_bytree: fraction(0.8),
  },
  lightgbm: {
    n_estimators: { type: "int", min: 1, max: 2000, default: 200 },
    num_leaves: { type: "int", min: 2, max: 1024, default: 31 },
    learning_rate: fraction(0.05),
    min_child_samples: { type: "int", min: 1, max: 100_000, default: 20 },
    subsample: fraction(0.8),
    colsample_bytree: fraction(0.8),
  },
};

/** The largest MLP: layers in hidden_layer_sizes. */
const MAX_LAYERS = 4;

export type ModelParams = Record<string, unknown> & { seed: number | null };

const invalid = (field: string, message: string) => refuse("train_field_invalid", { field, message });

export function parseModel(v: unknown): TrainedModel {
  if (v === undefined) throw invalid("model", `required, one of ${MODEL_NAMES.join(", ")}`);
  if (typeof v !== "string" || !(MODEL_NAMES as readonly string[]).includes(v)) {
    throw invalid("model", `expected one of ${MODEL_NAMES.join(", ")} (got ${JSON.stringify(v)})`);
  }
  return v as TrainedModel;
}

/**
 * `params` for `model`, defaults filled in: a built-in kind's known keys only, each within its
 * bounds; custom's params are any JSON object, handed to build_model(params) as they are. `seed`
 * is an integer or absent (null) for every kind.
 */
export function parseParams(model: TrainedModel, v: unknown): ModelParams {
  if (v === undefined) v = {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid("params", `expected an object (got ${JSON.stringify(v)})`);
  const p = v as Record<string, unknown>;
  if (p.seed !== undefined && !Number.isSafeInteger(p.seed)) throw invalid("params.seed", `expected an integer (got ${JSON.stringify(p.seed)})`);
  const seed = (p.seed as number | undefined) ?? null;
  if (model === "custom") return { ...p, seed };
  const specs = KIND_PARAMS[model];
  const known = ["seed", ...Object.keys(specs)];
  const unknown = Object.keys(p).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw invalid("params", `unknown ${model} parameter ${unknown.join(", ")}; known: ${known.join(", ")}`);
  const out: ModelParams = { seed };
  for (const [name, spec] of Object.entries(specs)) out[name] = p[name] === undefined ? spec.default : checked(`params.${name}`, spec, p[name]);
  // Ridge's params keep their order of old: {alpha, seed}.
  return model === "ridge" ? { alpha: out.alpha, seed } : out;
}

function checked(field: string, spec: ParamSpec, v: unknown): number | number[] {
  const range = `${spec.above_min ? "above" : "at least"} ${spec.min}${spec.max < Number.MAX_VALUE ? ` and at most ${spec.max}` : ""}`;
  const inRange = (x: unknown) =>
    typeof x === "number" && Number.isFinite(x) && (spec.above_min ? x > spec.min : x >= spec.min) && x <= spec.max && (spec.type === "number" || Number.isSafeInteger(x));
  if (spec.type === "int_list") {
    if (!Array.isArray(v) || v.length === 0 || v.length > MAX_LAYERS || !v.every(inRange)) {
      throw invalid(field, `expected 1 to ${MAX_LAYERS} integers, each ${range} (got ${JSON.stringify(v)})`);
    }
    return v as number[];
  }
  if (!inRange(v)) throw invalid(field, `expected ${spec.type === "int" ? "an integer" : "a number"} ${range} (got ${JSON.stringify(v)})`);
  return v as number;
}
