import type { PickleShape } from "../../participant/pickle-scan.js";
import type { ScannedShapes } from "../../participant/model-file.js";
import { checkUploadFiles, type CheckedFiles, type FileRules, type UploadFiles } from "./upload-files.js";

/**
 * An upload whose files come to at most this many bytes may be checked on the thread that
 * answers requests (a practice upload of a few hundred rows is about 8 KiB): parsing and scoring
 * such a CSV costs about what handing it to a checking thread and taking the answer back does, and
 * the upload then waits neither for that thread's turn on a busy machine nor for its answer's turn
 * on this one.
 */
export const CHECK_HERE_MAX_BYTES = 32 * 1024;

/** How many scanned model files are remembered (oldest forgotten first). */
const SCANNED_KEPT = 256;

/**
 * Model files the upload check pool scanned and passed, by SHA-256 (an agent uploads the same
 * model file with each new predictions file). Only their scan is skipped: every other check of the
 * file (size, digest, Python version) runs again with the rules in force.
 */
export class ScannedModelFiles implements ScannedShapes {
  private readonly shapes = new Map<string, PickleShape>();

  get(sha256: string): PickleShape | undefined {
    return this.shapes.get(sha256);
  }

  /** Remembers the model file of a pool's check that passed. */
  keep(checked: CheckedFiles): void {
    if (!checked.model_file.ok) return;
    const { sha256, shape } = checked.model_file.value;
    this.shapes.delete(sha256);
    this.shapes.set(sha256, shape);
    if (this.shapes.size > SCANNED_KEPT) this.shapes.delete(this.shapes.keys().next().value as string);
  }
}

/**
 * The upload's checks made here and now, when they are small and bounded: its files within
 * CHECK_HERE_MAX_BYTES, its predictions (if any) a CSV (a parquet file is decoded by WebAssembly,
 * which a failed decode leaves unusable: only a pool's thread, which is replaced then, decodes one),
 * its model file (if any) one whose declared digest names a file already scanned (the scan of an
 * unknown pickle stays on the pool, bounded in time and memory). Else null: the pool checks it.
 */
export function checkHere(files: UploadFiles, rules: FileRules, scanned: ScannedModelFiles): CheckedFiles | null {
  const { model_pkl: model, predictions } = files;
  if ((model?.bytes.byteLength ?? 0) + (predictions?.bytes.byteLength ?? 0) > CHECK_HERE_MAX_BYTES) return null;
  if (predictions && !predictions.filename.toLowerCase().endsWith(".csv")) return null;
  if (model && (typeof files.model_pkl_sha256 !== "string" || scanned.get(files.model_pkl_sha256) === undefined)) return null;
  return checkUploadFiles(files, rules, scanned);
}
