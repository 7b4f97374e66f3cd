import { mkdtemp, open, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { processTempDir } from "../data/temp-roots.js";
import { spooledFile } from "./form-file.js";

/**
 * Where one request's large file parts wait on disk instead of in memory: a private (0700)
 * directory made on first use, one 0600 file per part, all removed by `dispose` once the request
 * has been answered. A batch of 25 files of 20 MiB is then held as files, and read one item at a
 * time (a `File` backed by its file is read only when its bytes are asked for).
 */
export class FileSpool {
  private dir: Promise<string> | null = null;
  private count = 0;
  private readonly writing = new Set<SpooledFile>();

  /**
   * `thresholdBytes`: a file part grows in memory up to this size, and moves to disk past it.
   * `parent`: where the spool's directory is made, by default this process's `uploads` directory
   * (temp-roots.ts), removed at exit and, after a `kill -9`, at the next start.
   */
  constructor(
    readonly thresholdBytes: number,
    private readonly parent?: string,
  ) {}

  /** A new file of the spool, open for writing. */
  async create(): Promise<SpooledFile> {
    this.dir ??= mkdtemp(join(this.parent ?? processTempDir("uploads"), "upload-"));
    const path = join(await this.dir, String(this.count++));
    const file = new SpooledFile(path, await open(path, "wx", 0o600), () => this.writing.delete(file));
    this.writing.add(file);
    return file;
  }

  /** Closes what a broken body left open and removes the directory. */
  async dispose(): Promise<void> {
    await Promise.all([...this.writing].map((f) => f.close()));
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }
}

export class SpooledFile {
  constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
    private readonly closed: () => void,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    let at = 0;
    while (at < chunk.length) at += (await this.handle.write(chunk, at)).bytesWritten;
  }

  /** Closes the file and answers it as a `File` whose bytes stay on disk until read (by `fileBytes`, form-file.ts). */
  async file(name: string, type: string): Promise<File> {
    await this.close();
    return spooledFile(this.path, name, type);
  }

  async close(): Promise<void> {
    this.closed();
    await this.handle.close();
  }
}
