import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "../data/frame.js";
import { writeFrameParquet } from "../data/parquet.js";

/** Where the MCP face leaves the files it downloads for the caller. */
export const DOWNLOAD_DIR = join(tmpdir(), "basecamp-mcp");

let written = 0;

/**
 * Writes `bytes` to `DOWNLOAD_DIR/filename` and answers the path. The file is written under a
 * temporary name and renamed, so a reader never sees half a file when two servers share the cache.
 */
function saveDownload(filename: string, bytes: Uint8Array): string {
  mkdirSync(DOWNLOAD_DIR, { recursive: true });
  const path = join(DOWNLOAD_DIR, filename);
  const partial = `${path}.${process.pid}.${written++}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, path);
  return path;
}

/** A dataset or benchmark split as a parquet file. */
export function saveParquet(frame: Frame, filename: string): { path: string; rows: number; columns: string[] } {
  const path = saveDownload(filename, writeFrameParquet(frame));
  return { path, rows: frame.ids.length, columns: ["id", "exped", ...Object.keys(frame.columns)] };
}

/** A hosted training job's model file. */
export function saveModelFile(model: { filename: string; sha256: string; bytes: Uint8Array }): { path: string; sha256: string; n_bytes: number } {
  return { path: saveDownload(model.filename, model.bytes), sha256: model.sha256, n_bytes: model.bytes.length };
}
