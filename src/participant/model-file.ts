import { createHash } from "node:crypto";
import { refuse } from "../domain/errors.js";
import { requireSafe } from "./pickle-safety.js";
import { readPickle, requireCallable, type PickleShape } from "./pickle-scan.js";

/**
 * The checks on an event upload's `model_pkl` part and its two companion fields, in the order the
 * service applies them. Live settings (size limit, accepted python versions) come from the caller.
 */
export interface ModelFileRules {
  max_bytes: number;
  /** Accepted "major.minor" declarations, e.g. ["3.11", "3.12", "3.13"]. */
  python_versions: string[];
  /**
   * Refuse a declaration outside `python_versions`. The tournament `upload_model` path always does;
   * the event lanes do by the deployment's `event.model_file.enforce_python_version` (default true,
   * the spec's; public facts report event lanes that accept it).
   */
  enforce_python_version: boolean;
}

export interface ModelFileInput {
  filename: string | null;
  bytes: Uint8Array | null;
  sha256: string | null | undefined;
  python_version: string | null | undefined;
}

export interface CheckedModelFile {
  sha256: string;
  python_version: string;
  /** False when the declaration is outside the accepted set (possible only when not enforced). */
  python_version_accepted: boolean;
  shape: PickleShape;
}

/** An omitted `model_pkl_python_version` means "not declared", which the service treats as 3.11. */
export const DEFAULT_PYTHON_VERSION = "3.11";

const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAJOR_MINOR = /^\d+\.\d+$/;

export function checkModelFile(input: ModelFileInput, rules: ModelFileRules): CheckedModelFile {
  const { filename, bytes } = input;
  if (bytes === null || (bytes.length === 0 && !filename)) throw refuse("model_pkl_required");
  if (!filename || !filename.toLowerCase().endsWith(".pkl")) throw refuse("model_pkl_not_pkl");
  if (bytes.length > rules.max_bytes) throw refuse("model_file_too_large", { limit: rules.max_bytes });

  if (!input.sha256 || !SHA256_HEX.test(input.sha256)) throw refuse("model_pkl_sha256_invalid");
  const actual = createHash("sha256").update(bytes).digest("hex");
  if (input.sha256 !== actual) throw refuse("model_pkl_sha256_mismatch", { declared: input.sha256, actual });

  const python_version = input.python_version ?? DEFAULT_PYTHON_VERSION;
  if (!MAJOR_MINOR.test(python_version)) throw refuse("python_version_invalid");
  const python_version_accepted = rules.python_versions.includes(python_version);
  if (!python_version_accepted && rules.enforce_python_version) {
    throw refuse("python_version_unsupported", { version: python_version, accepted: rules.python_versions.join(", ") });
  }

  const { shape, manifest } = readPickle(bytes);
  requireSafe(manifest);
  requireCallable(shape);
  return { sha256: actual, python_version, python_version_accepted, shape };
}
