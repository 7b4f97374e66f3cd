import { refuse } from "../../domain/errors.js";
import { GPU_TIERS, type GpuTier } from "./settings.js";

/** The model names the real service trains; Basecamp really trains only ridge. */
export const MODEL_NAMES = ["lightgbm", "xgboost", "ridge", "mlp", "random_forest", "custom"] as const;
export const TRAINED_MODELS = ["ridge"] as const;

const FIELDS = ["model", "features", "target", "universe", "gpu", "params", "max_hours", "dry_run"] as const;
/** Fields of the real service Basecamp does not implement: refused by name, never read as unknown. */
const UNSUPPORTED = ["train_filter", "custom_model_fn"] as const;
const PARAMS = ["seed", "alpha"] as const;

export const MAX_HOURS = 4.0;
export const DEFAULT_MAX_HOURS = 1.0;
export const DEFAULT_ALPHA = 1.0;

/** A train call with every default resolved. */
export interface TrainRequest {
  model: "ridge";
  /** The feature columns, in the order the model reads them. */
  features: string[];
  /** How `features` was asked for: "all", "small", or "list". */
  feature_set: "all" | "small" | "list";
  target: string;
  universe: "futures";
  gpu: GpuTier;
  /** `alpha` is the ridge penalty per training row; `seed` is recorded (a ridge fit draws nothing). */
  params: { alpha: number; seed: number | null };
  max_hours: number;
  dry_run: boolean;
}

/** What the dataset offers a train call. */
export interface TrainDataset {
  features: string[];
  target: string;
}

const invalid = (field: string, message: string) => refuse("train_field_invalid", { field, message });

/**
 * Reads a train call's body: unknown top-level fields and a top-level `seed` are refused (400),
 * each refusal naming the field or value at fault; defaults filled in (model has none).
 */
export function parseTrainRequest(body: Record<string, unknown>, data: TrainDataset): TrainRequest {
  if ("seed" in body) throw refuse("train_seed_top_level");
  const unsupported = UNSUPPORTED.find((f) => f in body);
  if (unsupported) throw refuse("train_field_unsupported", { field: unsupported });
  const unknown = Object.keys(body).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw refuse("train_unknown_fields", { fields: unknown.join(", "), allowed: FIELDS.join(", ") });
  return {
    model: parseModel(body.model),
    ...parseFeatures(body.features, data.features),
    target: parseTarget(body.target, data.target),
    universe: parseUniverse(body.universe),
    gpu: parseGpu(body.gpu),
    params: parseParams(body.params),
    max_hours: parseMaxHours(body.max_hours),
    dry_run: parseDryRun(body.dry_run),
  };
}

function parseModel(v: unknown): "ridge" {
  if (v === undefined) throw invalid("model", `required, one of ${MODEL_NAMES.join(", ")}`);
  if (typeof v !== "string" || !(MODEL_NAMES as readonly string[]).includes(v)) {
    throw invalid("model", `expected one of ${MODEL_NAMES.join(", ")} (got ${JSON.stringify(v)})`);
  }
  if (v !== "ridge") throw refuse("train_model_unsupported", { model: v, trained: TRAINED_MODELS.join(", ") });
  return v;
}

/** "all", "small" (the default: the alphabetical first quarter of the features, at least one) or a list of feature names. */
function parseFeatures(v: unknown, all: string[]): Pick<TrainRequest, "features" | "feature_set"> {
  if (v === undefined || v === "small") {
    const sorted = [...all].sort();
    return { features: sorted.slice(0, Math.max(1, Math.ceil(sorted.length / 4))), feature_set: "small" };
  }
  if (v === "all") return { features: [...all], feature_set: "all" };
  if (!Array.isArray(v) || v.length === 0 || v.some((f) => typeof f !== "string")) {
    throw invalid("features", `expected "all", "small" or a non-empty list of feature names (got ${JSON.stringify(v)})`);
  }
  const known = new Set(all);
  const bad = (v as string[]).filter((f) => !known.has(f));
  if (bad.length > 0) throw invalid("features", `unknown feature ${bad.slice(0, 5).join(", ")}${bad.length > 5 ? ` and ${bad.length - 5} more` : ""}`);
  const twice = (v as string[]).find((f, i) => v.indexOf(f) !== i);
  if (twice !== undefined) throw invalid("features", `${twice} is listed twice`);
  return { features: v as string[], feature_set: "list" };
}

function parseTarget(v: unknown, graded: string): string {
  if (v === undefined || v === graded) return graded;
  throw invalid("target", `the dataset has one target, ${graded} (got ${JSON.stringify(v)})`);
}

function parseUniverse(v: unknown): "futures" {
  if (v === undefined || v === "futures") return "futures";
  throw invalid("universe", `expected "futures" (got ${JSON.stringify(v)})`);
}

function parseGpu(v: unknown): GpuTier {
  if (v === undefined) return "T4";
  if (typeof v === "string" && (GPU_TIERS as readonly string[]).includes(v)) return v as GpuTier;
  throw invalid("gpu", `expected one of ${GPU_TIERS.join(", ")} (got ${JSON.stringify(v)})`);
}

function parseParams(v: unknown): TrainRequest["params"] {
  if (v === undefined) return { alpha: DEFAULT_ALPHA, seed: null };
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw invalid("params", `expected an object (got ${JSON.stringify(v)})`);
  const p = v as Record<string, unknown>;
  const unknown = Object.keys(p).filter((k) => !(PARAMS as readonly string[]).includes(k));
  if (unknown.length > 0) throw invalid("params", `unknown ridge parameter ${unknown.join(", ")}; known: ${PARAMS.join(", ")}`);
  if (p.seed !== undefined && !Number.isSafeInteger(p.seed)) throw invalid("params.seed", `expected an integer (got ${JSON.stringify(p.seed)})`);
  if (p.alpha !== undefined && (typeof p.alpha !== "number" || !Number.isFinite(p.alpha) || p.alpha < 0)) {
    throw invalid("params.alpha", `expected a number ≥ 0 (got ${JSON.stringify(p.alpha)})`);
  }
  return { alpha: (p.alpha as number | undefined) ?? DEFAULT_ALPHA, seed: (p.seed as number | undefined) ?? null };
}

function parseMaxHours(v: unknown): number {
  if (v === undefined) return DEFAULT_MAX_HOURS;
  // Under one second a job could hold nothing and run for free.
  if (typeof v !== "number" || !Number.isFinite(v) || v * 3600 < 1 || v > MAX_HOURS) {
    throw invalid("max_hours", `expected a number of hours of at least one second (1/3600) and at most ${MAX_HOURS} (got ${JSON.stringify(v)})`);
  }
  return v;
}

function parseDryRun(v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== "boolean") throw invalid("dry_run", `expected true or false (got ${JSON.stringify(v)})`);
  return v;
}
