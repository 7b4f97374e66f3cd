import { refuse, ServiceError, type ErrorCode } from "../../domain/errors.js";
import { parsePredictionsFile, predictionsDigest, type PredictionsLimits } from "../../data/predictions-file.js";
import type { PreparedExped } from "../../scoring/exped.js";
import { encodePredictions } from "../rounds/submission-codec.js";
import { scoreRun, type RunScores } from "../../scoring/run-scores.js";
import { checkModelFile, type CheckedModelFile, type ModelFileRules } from "../../participant/model-file.js";
import type { FilePart } from "../../data/file-part.js";

/** A refusal as plain data, to cross a thread boundary and be thrown again on the other side. */
export interface RefusalData {
  code: ErrorCode;
  message: string;
  extra: Record<string, unknown>;
  headers: Record<string, string>;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: RefusalData };

/** A predictions file read and checked, in the form the store keeps it. */
export interface CheckedPredictions {
  digest: string;
  n_rows: number;
  /**
   * The ids in file order, as JSON text in UTF-8: bytes cross from a checking thread without a
   * copy and reach the store without the string-to-UTF-8 pass a string would take there.
   */
  ids_json: Uint8Array;
  /** The values in file order, encoded as the store keeps them (float64 LE). */
  values: Uint8Array;
  /** The file's scores against the rules' `score_against`; null without them. */
  scores: RunScores | null;
}

/**
 * What reading an upload's two files found: each part's checks passed (with what they computed)
 * or its refusal. The service applies them in its own order, after the checks that need the store.
 */
export interface CheckedFiles {
  model_file: Outcome<CheckedModelFile>;
  /** null: the upload has no predictions part. */
  predictions: Outcome<CheckedPredictions> | null;
}

export interface FileRules {
  model_file: ModelFileRules;
  /** null: the upload carries no predictions file (a tournament model file). */
  predictions: PredictionsLimits | null;
  /**
   * The expeds the run will be scored against, as its lane stood when the upload began: the file
   * is scored against them while its ids are at hand (src/service/event/run-prescoring.ts). Absent
   * when not known (a round lane outside a round).
   */
  score_against?: readonly PreparedExped[] | null;
}

/** The files of an upload, as the file checks take them (no store, no clock: any thread may run them). */
export interface UploadFiles {
  predictions: FilePart | null;
  model_pkl: FilePart | null;
  model_pkl_sha256?: string | null;
  model_pkl_python_version?: string | null;
}

/**
 * Every check on an upload's files that reads their bytes: the model file's (hash, pickle scan)
 * and the predictions file's (bounds, parse, values, digest, and its scores when the rules name
 * the expeds). CPU and memory heavy, state-free, so
 * it runs off the service's serial path (src/service/event/upload-check-pool.ts).
 */
export function checkUploadFiles(files: UploadFiles, rules: FileRules): CheckedFiles {
  const model_file = outcome(() =>
    checkModelFile(
      {
        filename: files.model_pkl?.filename ?? null,
        bytes: files.model_pkl?.bytes ?? null,
        sha256: files.model_pkl_sha256,
        python_version: files.model_pkl_python_version,
      },
      rules.model_file,
    ),
  );
  const part = files.predictions;
  const limits = rules.predictions;
  if (part && !limits) throw new Error("a predictions file to check without limits");
  const predictions = part && limits && outcome(() => checkPredictions(part.filename, part.bytes, limits, rules.score_against ?? null));
  return { model_file, predictions };
}

/** A file the readers choke on in a way they did not foresee is still the caller's bad file: 400, never 500. */
function checkPredictions(filename: string, bytes: Uint8Array, limits: PredictionsLimits, truths: readonly PreparedExped[] | null): CheckedPredictions {
  let parsed;
  try {
    parsed = parsePredictionsFile(filename, bytes, limits);
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    const format = filename.toLowerCase().endsWith(".csv") ? "CSV" : "parquet";
    throw refuse("predictions_file_unreadable", { format, reason: e instanceof Error ? e.message : String(e) });
  }
  return {
    digest: predictionsDigest(parsed),
    n_rows: parsed.ids.length,
    ids_json: new TextEncoder().encode(JSON.stringify(parsed.ids)),
    values: encodePredictions(parsed.values),
    scores: truths && scoreRun(parsed.ids, parsed.values, truths),
  };
}

function outcome<T>(fn: () => T): Outcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (e instanceof ServiceError) return { ok: false, refusal: refusalData(e) };
    throw e;
  }
}

export function refusalData(e: ServiceError): RefusalData {
  return { code: e.code, message: e.message, extra: e.extra, headers: e.headers };
}

/** The outcome's value, or its refusal thrown. */
export function passed<T>(o: Outcome<T>): T {
  if (o.ok) return o.value;
  const { code, message, extra, headers } = o.refusal;
  throw new ServiceError(code, message, extra, headers);
}
