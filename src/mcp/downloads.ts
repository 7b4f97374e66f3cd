import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fillPath } from "../contract/args.js";
import { operations } from "../contract/index.js";
import { removeAtExit, removeNow } from "../data/exit-cleanup.js";
import type { Frame } from "../domain/frame.js";
import { writeFrameParquet } from "../data/parquet.js";
import { processTempDir } from "../data/temp-roots.js";

/** A download the service has allowed: its file name, the REST path that serves the same bytes, and how to make them. */
interface Download {
  filename: string;
  rest: string;
  bytes: () => Uint8Array;
}

/**
 * How a download tool hands its file over. A local client (stdio) gets a path on its own machine;
 * a remote one (HTTP) must not learn the server's paths, and gets the REST URL instead.
 */
export interface Downloads {
  deliver(download: Download): { path: string } | { download_url: string };
}

/**
 * Where one stdio MCP session (`basecamp mcp`) leaves the files it downloads for its caller: a
 * private directory made by mkdtemp (mode 0700, in this process's `mcp` directory) on the first
 * download, files mode 0600, all removed by `close()` (or at process exit).
 */
export class DownloadDir implements Downloads {
  private dir: string | null = null;
  private written = 0;

  deliver(download: Download): { path: string } {
    return { path: this.save(download.filename, download.bytes()) };
  }

  /** Writes `bytes` under `filename` (a temporary name, then renamed: a reader never sees half a file) and answers the path. */
  private save(filename: string, bytes: Uint8Array): string {
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
    const dir = mkdtempSync(join(processTempDir("mcp"), "session-"));
    removeAtExit(dir);
    this.dir = dir;
    return dir;
  }
}

/**
 * The downloads of `/mcp` over HTTP: the REST URL on the server the caller reached (`origin`), which
 * it GETs with the same X-API-Key, as the REST `get_model_download_url` answers. Nothing is written.
 */
export class DownloadLinks implements Downloads {
  constructor(private readonly origin: string) {}

  deliver(download: Download): { download_url: string } {
    return { download_url: `${this.origin}${download.rest}` };
  }
}

/** A dataset or benchmark split as a parquet file; `columns` are the data columns, `index` the index column. */
export function deliverParquet(downloads: Downloads, frame: Frame, filename: string, rest: string) {
  const file = downloads.deliver({ filename, rest, bytes: () => writeFrameParquet(frame) });
  return { ...file, filename, rows: frame.ids.length, index: "id" as const, columns: ["exped", ...Object.keys(frame.columns)] };
}

/** A hosted training job's model file. */
export function deliverModelFile(downloads: Downloads, jobId: string, model: { filename: string; sha256: string; bytes: Uint8Array }) {
  const rest = fillPath(operations.downloadModel.rest[1], { job_id: jobId });
  const file = downloads.deliver({ filename: model.filename, rest, bytes: () => model.bytes });
  return { ...file, filename: model.filename, sha256: model.sha256, n_bytes: model.bytes.length };
}
