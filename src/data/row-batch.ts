/**
 * A run of consecutive rows of a predictions file as a streaming reader hands them over: ids as
 * bytes (never a string per row), the exped label as runs, and the requested numeric columns.
 * A reader may reuse its arrays for the next batch: a batch's arrays are valid until the next is asked for.
 */
export interface RowBatch {
  length: number;
  /** Id i is `idBytes[idOffsets[i] .. idOffsets[i + 1])` (UTF-8). */
  idBytes: Uint8Array;
  idOffsets: Int32Array;
  /** Run k has label `runLabels[k]` and covers rows `[runStarts[k], runStarts[k + 1] ?? length)`. */
  runLabels: string[];
  runStarts: number[];
  /** The requested numeric columns, in the order asked for (NaN = missing). */
  columns: Float64Array[];
}

/**
 * A file's row batches in file order, with the named numeric columns (each must exist: else an
 * error "missing column 'x'"). A batch's arrays may be reused for the next batch, so a consumer
 * copies what it keeps before asking for the next. Called again, it reads the file again.
 */
export type BatchSource = (columns: string[]) => AsyncIterable<RowBatch>;

/** The exped label's column names, first found first (dir-frame.ts's EXPED_COLUMNS; not imported, so a CSV read never loads arrow). */
const LABEL_COLUMNS = ["exped", "era"];

/** The column of `names` that holds the exped label: `exped`, else `era` (as older files and pandas users name it). */
export function labelColumnIn(names: readonly string[]): string {
  const name = LABEL_COLUMNS.find((c) => names.includes(c));
  if (!name) throw new Error("missing column 'exped' (or 'era')");
  return name;
}
