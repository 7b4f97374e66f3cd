import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DOWNLOAD_DIR } from "./parquet-file.js";

let written = 0;

/** Writes a downloaded model's bytes to `DOWNLOAD_DIR/filename` (under a temporary name, then renamed) and says where. */
export function saveModelFile(model: { filename: string; sha256: string; bytes: Uint8Array }): { path: string; sha256: string; n_bytes: number } {
  mkdirSync(DOWNLOAD_DIR, { recursive: true });
  const path = join(DOWNLOAD_DIR, model.filename);
  const partial = `${path}.${process.pid}.${written++}.partial`;
  writeFileSync(partial, model.bytes);
  renameSync(partial, path);
  return { path, sha256: model.sha256, n_bytes: model.bytes.length };
}
