import type { Db } from "../../store/db.js";
import { dropPart, newStage, writePart } from "../../store/upload-predictions.js";
import type { CheckedPredictions } from "./upload-files.js";

/**
 * A predictions file whose stored bytes (ids and values) pass this is staged in parts of about
 * this size, each in a serial step and a commit of its own: about 2 ms of the main thread each,
 * where the whole file in the accepting commit held it (and every request behind it) for tens of
 * milliseconds. A smaller file is written by the accepting commit itself.
 */
export const STAGE_PART_BYTES = 1024 * 1024;

/** A large file's parts, written under `stage` and not yet linked to an upload. */
export interface Staged {
  stage: number;
  parts: number;
}

/** Runs a step on the service's serial path. */
type Serial = <T>(fn: () => T) => Promise<T>;

/**
 * Writes a large file's parts before its upload is accepted, one serial step each (other calls
 * take their turn between them); null for a small file. Until the accepting commit links the stage
 * (`linkStage`), no read sees it; a failure midway removes what was written.
 */
export async function stagePredictions(db: Db, serial: Serial, predictions: CheckedPredictions): Promise<Staged | null> {
  const total = predictions.ids_json.byteLength + predictions.values.byteLength;
  if (total <= STAGE_PART_BYTES) return null;
  const parts = Math.ceil(total / STAGE_PART_BYTES);
  let stage: number | null = null;
  let written = 0;
  try {
    for (; written < parts; written++) {
      const [ids, values] = [slice(predictions.ids_json, written, parts), slice(predictions.values, written, parts)];
      const part = written;
      if (written > 0) await nextTurn();
      stage = await serial(() => {
        const s = stage ?? newStage(db);
        writePart(db, s, part, ids, values);
        return s;
      });
    }
  } catch (e) {
    if (stage !== null) await dropStaged(db, serial, { stage, parts: written });
    throw e;
  }
  return { stage: stage as number, parts };
}

/** Removes a stage no upload took (refused, or a replayed idempotency key), a part per serial step. */
export async function dropStaged(db: Db, serial: Serial, staged: Staged): Promise<void> {
  for (let part = 0; part < staged.parts; part++) {
    if (part > 0) await nextTurn();
    await serial(() => dropPart(db, staged.stage, part));
  }
}

/**
 * Resolves once the event loop has served what arrived meanwhile (requests, I/O). A serial step
 * that follows another at once, with nothing but promises between, runs in the same task: the
 * parts of a 20 MiB file, a few milliseconds each, held every request for the whole file.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The `i`-th of `n` near-equal slices of `bytes` (no copy), as the store binds a BLOB. */
function slice(bytes: Uint8Array, i: number, n: number): Buffer {
  const at = (k: number) => Math.floor((bytes.byteLength * k) / n);
  return Buffer.from(bytes.buffer, bytes.byteOffset + at(i), at(i + 1) - at(i));
}
