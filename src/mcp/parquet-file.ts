import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "../data/frame.js";
import { writeFrameParquet } from "../data/parquet.js";

/** Where the MCP face leaves the files it downloads for the caller. */
export const DOWNLOAD_DIR = join(tmpdir(), "basecamp-mcp");

let written = 0;

/**
 * Writes `frame` as parquet to `DOWNLOAD_DIR/filename` and says where. The file is written under a
 * temporary name and renamed, so a reader never sees half a file when two servers share the cache.
 */
export function saveParquet(frame: Frame, filename: string): { path: string; rows: number; columns: string[] } {
  mkdirSync(DOWNLOAD_DIR, { recursive: true });
  const path = join(DOWNLOAD_DIR, filename);
  const partial = `${path}.${process.pid}.${written++}.partial`;
  writeFileSync(partial, writeFrameParquet(frame));
  renameSync(partial, path);
  return { path, rows: frame.ids.length, columns: ["id", "exped", ...Object.keys(frame.columns)] };
}
