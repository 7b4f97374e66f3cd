import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit, removeNow } from "../data/exit-cleanup.js";
import type { Frame } from "../data/frame.js";
import { writeFrameParquet } from "../data/parquet.js";

/**
 * Where one MCP server (a `basecamp mcp` session, or the `/mcp` face of one `basecamp serve`)
 * leaves the files it downloads for its caller: a private directory made by mkdtemp (mode 0700)
 * on the first download, files mode 0600, all removed by `close()` (or at process exit).
 */
export class DownloadDir {
  private dir: string | null = null;
  private written = 0;

  /** Writes `bytes` under `filename` (a temporary name, then renamed: a reader never sees half a file) and answers the path. */
  save(filename: string, bytes: Uint8Array): string {
    const dir = this.ensure();
    const path = join(dir, filename);
    const partial = join(dir, `.${this.written++}.partial`);
    writeFileSync(partial, bytes, { mode: 0o600, flag: "wx" });
    renameSync(partial, path);
    return path;
  }

  close(): void {
    if (this.dir === null) return;
    removeNow(this.dir);
    this.dir = null;
  }

  private ensure(): string {
    if (this.dir !== null) return this.dir;
    const dir = mkdtempSync(join(tmpdir(), "basecamp-mcp-"));
    removeAtExit(dir);
    this.dir = dir;
    return dir;
  }
}

/** A dataset or benchmark split as a parquet file; `columns` are the data columns, `index` the index column. */
export function saveParquet(dir: DownloadDir, frame: Frame, filename: string): { path: string; rows: number; index: "id"; columns: string[] } {
  const path = dir.save(filename, writeFrameParquet(frame));
  return { path, rows: frame.ids.length, index: "id", columns: ["exped", ...Object.keys(frame.columns)] };
}

/** A hosted training job's model file. */
export function saveModelFile(dir: DownloadDir, model: { filename: string; sha256: string; bytes: Uint8Array }): { path: string; sha256: string; n_bytes: number } {
  return { path: dir.save(model.filename, model.bytes), sha256: model.sha256, n_bytes: model.bytes.length };
}
