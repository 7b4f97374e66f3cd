import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { asFloat64, type Frame } from "../../domain/frame.js";
import type { Isolation } from "../../participant/isolation.js";
import { runSandboxedJob } from "../../participant/run-job.js";
import type { Outcome } from "../../participant/python-worker.js";
import { canonicalJson } from "../../store/canonical-json.js";
import { cvFolds, FILL_VALUE, type Fold } from "./cv-plan.js";
import { scoreCv, type CvMetrics, type CvTruth, type FoldResult } from "./cv-score.js";
import type { ModelParams, TrainedModel } from "./model-kinds.js";

const SCRIPT = fileURLToPath(new URL("../../participant/python/train_job.py", import.meta.url));

export interface PythonFitInput extends CvTruth {
  model: Exclude<TrainedModel, "ridge">;
  params: ModelParams;
  features: string[];
  custom_model_fn?: string;
  /** Real seconds the sandboxed run may take (also its CPU-seconds limit). */
  wall_seconds: number;
  /** How the run is isolated (training-python.ts); custom_model_fn's source always runs in the sandbox. */
  isolation: Isolation;
}

export interface PythonFit {
  cv: CvMetrics;
  folds: FoldResult[];
  /** Every train row's held-out prediction (NaN for a row no fold held out), as Python returned it. */
  oof: Float64Array;
  /** The cloudpickled predict callable. */
  pickle: Uint8Array;
  python_version: string;
  /**
   * What was learned, without the pickle's machine-dependent bytes: the kind, features and
   * params, and digests of the held-out and the final model's predictions on the train rows.
   */
  model_digest: string;
}

/**
 * Trains a scikit-learn, XGBoost, LightGBM or custom model in the sandbox (train_job.py) on the same
 * exped-purged folds as the ridge; the held-out predictions come back and are scored here by the
 * scoring engine (cv-score.ts), never by Python. Never throws: a failing run is its reason.
 */
export async function fitInSandbox(input: PythonFitInput): Promise<Outcome<PythonFit>> {
  const { train, features } = input;
  const rows = train.ids.length;
  const folds = cvFolds(train);
  const job = { kind: input.model, params: input.params, features, fill_value: FILL_VALUE, rows, folds: folds.length, custom_source: input.custom_model_fn };
  const ran = await runSandboxedJob({
    script: SCRIPT,
    inputs: { "job.json": JSON.stringify(job), "x.f64": rowMajor(train, features), "y.f64": bytesOf(asFloat64(train.columns[input.target])), "masks.u8": masks(folds, rows) },
    outputs: ["oof.f64", "fitted.f64", "model.pkl", "result.json"],
    timeout_seconds: input.wall_seconds,
    limits: { cpu_seconds: input.wall_seconds },
    what: `${input.model} training`,
    isolation: input.isolation,
  });
  if (!ran.ok) return ran;
  const { files } = ran;
  const oof = floats(files["oof.f64"], rows);
  const fitted = floats(files["fitted.f64"], rows);
  if (oof === null || fitted === null) return { ok: false, error: `the ${input.model} training answered predictions for other than its ${rows} rows` };
  const held = folds.flatMap((f) => f.held.flatMap((h) => h.rows));
  if (held.some((r) => !Number.isFinite(oof[r]))) return { ok: false, error: `the ${input.model} training left held-out rows without a finite prediction` };
  let python_version: string;
  try {
    python_version = String((JSON.parse(files["result.json"].toString("utf8")) as { python_version: unknown }).python_version);
  } catch {
    return { ok: false, error: `the ${input.model} training's result.json is not JSON` };
  }
  const scored = scoreCv(input, folds, (_f: Fold, r: number[]) => Float64Array.from(r, (i) => oof[i]));
  const learned = { model: input.model, features, params: input.params, oof_sha256: sha256(files["oof.f64"]), fitted_sha256: sha256(files["fitted.f64"]) };
  return { ok: true, ...scored, oof, pickle: new Uint8Array(files["model.pkl"]), python_version, model_digest: sha256(canonicalJson(learned)) };
}

/** The features as one rows × features float64 matrix, row-major, NaN kept (the script fills it). */
function rowMajor(frame: Frame, features: string[]): Uint8Array {
  const n = frame.ids.length;
  const out = new Float64Array(n * features.length);
  features.forEach((f, j) => {
    const col = frame.columns[f];
    for (let i = 0; i < n; i++) out[i * features.length + j] = col[i];
  });
  return bytesOf(out);
}

/** Per fold, per row: 1 = fitted on, 2 = held out, 0 = neither. */
function masks(folds: Fold[], rows: number): Uint8Array {
  const out = new Uint8Array(folds.length * rows);
  folds.forEach((f, k) => {
    for (const r of f.fit_rows) out[k * rows + r] = 1;
    for (const h of f.held) for (const r of h.rows) out[k * rows + r] = 2;
  });
  return out;
}

function bytesOf(a: Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function floats(bytes: Buffer, rows: number): Float64Array | null {
  if (bytes.length !== rows * 8) return null;
  return new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
