import { refuse } from "../../domain/errors.js";
import { parseModel, parseParams, type ModelParams, type TrainedModel } from "./model-kinds.js";
import { GPU_TIERS, type GpuTier } from "../kernel/settings/compute.js";
import { parseTrainFilter, type TrainFilter } from "./train-filter.js";
import type { JobRow } from "../../store/jobs.js";

const FIELDS = ["model", "features", "target", "universe", "gpu", "params", "max_hours", "train_filter", "custom_model_fn", "dry_run"] as const;

export const MAX_HOURS = 4.0;
export const DEFAULT_MAX_HOURS = 1.0;
/** The longest custom_model_fn source accepted, in characters. */
export const MAX_CUSTOM_SOURCE = 64 * 1024;

/** A train call with every default resolved. */
export interface TrainRequest {
  model: TrainedModel;
  /** The feature columns, in the order the model reads them. */
  features: string[];
  /** How `features` was asked for: "all", "small", or "list". */
  feature_set: "all" | "small" | "list";
  target: string;
  universe: "futures";
  gpu: GpuTier;
  /** The kind's hyperparameters with defaults filled in, and `seed` (null when not given). */
  params: ModelParams;
  max_hours: number;
  /** Which train expeds the job uses; absent: the whole train split. */
  train_filter?: TrainFilter;
  /** model custom only: the source defining build_model(params). */
  custom_model_fn?: string;
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
 * each refusal naming the field or value at fault; defaults filled in (model has none). A
 * custom_model_fn is only read here; its static scan is custom-scan.ts's.
 */
export function parseTrainRequest(body: Record<string, unknown>, data: TrainDataset): TrainRequest {
  if ("seed" in body) throw refuse("train_seed_top_level");
  const unknown = Object.keys(body).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw refuse("train_unknown_fields", { fields: unknown.join(", "), allowed: FIELDS.join(", ") });
  const model = parseModel(body.model);
  const filter = parseTrainFilter(body.train_filter);
  const custom = parseCustomSource(model, body.custom_model_fn);
  return {
    model,
    ...parseFeatures(body.features, data.features),
    target: parseTarget(body.target, data.target),
    universe: parseUniverse(body.universe),
    gpu: parseGpu(body.gpu),
    params: parseParams(model, body.params),
    max_hours: parseMaxHours(body.max_hours),
    ...(filter === null ? {} : { train_filter: filter }),
    ...(custom === null ? {} : { custom_model_fn: custom }),
    dry_run: parseDryRun(body.dry_run),
  };
}

function parseCustomSource(model: TrainedModel, v: unknown): string | null {
  if (model !== "custom") {
    if (v !== undefined) throw invalid("custom_model_fn", `only model custom takes one (the model is ${model})`);
    return null;
  }
  if (typeof v !== "string" || v.trim().length === 0) throw invalid("custom_model_fn", "required for model custom: a source string defining build_model(params)");
  if (v.length > MAX_CUSTOM_SOURCE) throw invalid("custom_model_fn", `${v.length} characters, more than ${MAX_CUSTOM_SOURCE}`);
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

/** A job's resolved request, as stored with it. */
export function requestOf(row: JobRow): TrainRequest {
  return JSON.parse(row.request) as TrainRequest;
}
