import { availableParallelism } from "node:os";
import { DataType, tableFromIPC, type Vector } from "apache-arrow";
import { ParquetFile as WasmParquetFile, type RecordBatch as WasmRecordBatch } from "./parquet-wasm.js";
import { NumericColumnBuilder, readStrings } from "./arrow-columns.js";
import { startWorker, workerModule } from "../domain/worker-thread.js";
import type { NumericColumn } from "../domain/frame.js";
import { parquetBlob } from "./parquet-blob.js";
import { checkParquetBlob, checkParquetFooter } from "./parquet-check.js";
import { ThreadSlots } from "./thread-slots.js";

/** Rows per batch decoded in wasm: wasm memory holds one batch (and its row group's pages), never the file. */
const BATCH_ROWS = 1 << 14;
/** A file of few columns is read on one thread: a thread's start costs more than its share would. */
const MIN_COLUMNS_PER_THREAD = 16;
/**
 * A file of at most this many bytes is decoded on the calling thread: a thread's start (its own
 * module loading and wasm compilation, about half a CPU second from the sources) costs more than
 * decoding such a file, and its wasm memory stays small.
 */
const MAX_BYTES_IN_PLACE = 16 * 1024 * 1024;

/** Reading threads of the whole process, whatever files are read side by side: one per core. */
const READING_THREADS = new ThreadSlots(availableParallelism());

/** A column as read: strings (Utf8, LargeUtf8 or dictionary) or numbers in their own type. */
export type ColumnValues = string[] | NumericColumn;

/**
 * A parquet file opened for reading some of its columns: the fields and row count come from the
 * footer alone (the file is a Blob, read by byte ranges: parquetBlob), and `read` decodes only the columns it is
 * asked for, row group by row group in batches of BATCH_ROWS, into one array per column of the
 * footer's row count: so any file pyarrow reads is read, whatever its size, and nothing but the
 * result (and a small file's bytes) is ever whole in memory. The file is checked to hold what it says before anything is
 * decoded (src/data/parquet-check.ts): its footer as it opens, its pages before its first decode
 * (a file only opened for its fields and rows, like a train split left unread, is not read through).
 */
export class ParquetFile {
  /** Column name → arrow type, in file order. */
  readonly fields: Map<string, DataType>;
  /** The column holding the row key `id`. */
  readonly index: string;
  /** Whether pandas' metadata names `index` as the index (so that pd.read_parquet makes it the frame's index). */
  readonly pandasIndex: boolean;
  /** The file's row count (its footer's). */
  readonly rows: number;
  /** Its pages checked against its footer, once, before its first decode here. */
  private pagesChecked: Promise<void> | null = null;

  private constructor(
    readonly path: string,
    readonly blob: Blob,
    file: WasmParquetFile,
  ) {
    const schema = tableFromIPC(file.schema().intoIPCStream()).schema;
    this.fields = new Map(schema.fields.map((f) => [f.name, f.type]));
    const pandas = schema.metadata.get("pandas");
    this.index = indexColumn(pandas, this.fields);
    this.pandasIndex = pandas !== undefined && storedIndexColumns(pandas)[0] === this.index;
    this.rows = file.metadata().fileMetadata().numRows();
  }

  /** Opens `path` (parquetBlob: a small file is read whole); a missing or unreadable file is an error naming it. */
  static async open(path: string): Promise<ParquetFile> {
    let blob: Blob;
    try {
      blob = await parquetBlob(path);
    } catch (e) {
      throw new Error(`cannot read ${path}: ${(e as Error).message}`);
    }
    return inFileAsync(path, async () => {
      await checkParquetFooter(blob);
      const file = await WasmParquetFile.fromFile(blob);
      try {
        return new ParquetFile(path, blob, file);
      } finally {
        file.free();
      }
    });
  }

  /**
   * The named columns only (each must exist), by name. A large file's are decoded on threads of
   * their own (parquet-read-thread.ts), a share of the columns each, one per core: each thread's
   * wasm memory (which never shrinks) goes with it, and only the columns stay, handed over without
   * a copy. Files read side by side share the cores' threads (READING_THREADS): a share waits its
   * turn. A small one's (MAX_BYTES_IN_PLACE) are decoded here. `where` overrides the choice.
   */
  async read(columns: string[], where: "here" | "threads" = this.blob.size <= MAX_BYTES_IN_PLACE ? "here" : "threads"): Promise<Map<string, ColumnValues>> {
    for (const name of columns) if (!this.fields.has(name)) throw new Error(`${this.path}: no column '${name}'`);
    if (where === "here") return decodeColumns(this, columns);
    const threads = Math.max(1, Math.min(availableParallelism(), Math.ceil(columns.length / MIN_COLUMNS_PER_THREAD)));
    const shares = Array.from({ length: threads }, (_, t) => columns.filter((_, i) => i % threads === t));
    const answers = await Promise.all(shares.map((share) => READING_THREADS.run(() => this.readOnThread(share))));
    const read = new Map(answers.flat());
    return new Map(columns.map((name) => [name, read.get(name) as ColumnValues]));
  }

  /** Resolves once the file's pages are checked (checkParquetBlob); the check runs once. */
  checkPages(): Promise<void> {
    return (this.pagesChecked ??= checkParquetBlob(this.blob));
  }

  private async readOnThread(columns: string[]): Promise<[string, ColumnValues][]> {
    const { thread } = startWorker(workerModule("parquet-read-thread", import.meta.url), { path: this.path, columns } satisfies ReadRequest);
    const answer = await new Promise<ReadAnswer>((resolve, reject) => {
      thread.once("message", resolve).once("error", reject);
      thread.once("exit", (code) => reject(new Error(`the parquet reading thread exited (${code})`)));
    });
    await thread.terminate();
    if ("error" in answer) throw new Error(answer.error.startsWith(this.path) ? answer.error : `${this.path}: ${answer.error}`);
    return answer.columns;
  }
}

/** What the reading thread is asked: the file and its columns. */
export interface ReadRequest {
  path: string;
  columns: string[];
}

/** What it answers: the columns by name (numbers' buffers transferred), or why they cannot be read. */
export type ReadAnswer = { columns: [string, ColumnValues][] } | { error: string };

/** `columns` of the file at `path`, read row group by row group in batches of BATCH_ROWS into one array per column. */
export async function readColumns(path: string, columns: string[]): Promise<Map<string, ColumnValues>> {
  return decodeColumns(await ParquetFile.open(path), columns);
}

/** `columns` of an opened file, decoded on this thread. */
function decodeColumns(file: ParquetFile, columns: string[]): Promise<Map<string, ColumnValues>> {
  return inFileAsync(file.path, async () => {
    await file.checkPages();
    const strings = new Map<string, string[][]>();
    const numbers = new Map<string, NumericColumnBuilder>();
    for (const name of columns) {
      const type = file.fields.get(name);
      if (!type) throw new Error(`no column '${name}'`);
      if (DataType.isInt(type) || DataType.isFloat(type)) numbers.set(name, new NumericColumnBuilder(name, type, file.rows));
      else strings.set(name, []);
    }
    const wasm = await WasmParquetFile.fromFile(file.blob);
    try {
      const reader = (await wasm.stream({ columns, batchSize: BATCH_ROWS })).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const table = tableFromIPC((value as WasmRecordBatch).intoIPCStream());
        const child = (name: string) => table.getChild(name) as Vector;
        for (const [name, builder] of numbers) builder.add(child(name));
        for (const [name, parts] of strings) parts.push(readStrings(name, child(name)));
      }
    } finally {
      wasm.free();
    }
    const out = new Map<string, ColumnValues>();
    for (const name of columns) out.set(name, numbers.get(name)?.done() ?? (strings.get(name) as string[][]).flat());
    return out;
  });
}

/**
 * The row-key column. pandas stores a named index as a column of that name (`id`) and an unnamed
 * one as `__index_level_0__`, and lists it in its metadata's `index_columns`; a RangeIndex is
 * listed as an object and stored nowhere, in which case the key must be a column named `id`.
 */
function indexColumn(pandasJson: string | undefined, fields: Map<string, DataType>): string {
  const stored = pandasJson === undefined ? [] : storedIndexColumns(pandasJson);
  if (stored.length > 1) throw new Error(`has a multi-column index (${stored.join(", ")}); expected one index, id`);
  const index = stored[0] ?? "id";
  if (!fields.has(index)) {
    throw new Error(stored.length ? `pandas metadata names index column '${index}', which the file lacks` : "no id index and no 'id' column");
  }
  return index;
}

function storedIndexColumns(pandasJson: string): string[] {
  let metadata: unknown;
  try {
    metadata = JSON.parse(pandasJson);
  } catch (e) {
    throw new Error(`its pandas metadata is not JSON: ${(e as Error).message}`);
  }
  const listed = (metadata as { index_columns?: unknown }).index_columns;
  return Array.isArray(listed) ? listed.filter((c): c is string => typeof c === "string") : [];
}

/** Runs `fn`, prefixing any error's message with `path` (once). */
export function inFile<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw inPath(path, e);
  }
}

/** `inFile` for an async `fn`. */
export async function inFileAsync<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw inPath(path, e);
  }
}

function inPath(path: string, e: unknown): Error {
  const message = (e as Error).message;
  return new Error(message.startsWith(path) ? message : `${path}: ${message}`);
}
