/**
 * A column table, the one in-memory shape of every dataset split and benchmark file: the row key
 * `id` (opaque strings), the `exped` label per row, and numeric columns in their file's own type
 * (int8 features stay Int8Array, float32 targets Float32Array; NaN = missing in a float column).
 * Row order is whatever the producer gave; consumers that need an order sort by id.
 */
export interface Frame {
  ids: string[];
  exped: string[];
  columns: Record<string, NumericColumn>;
}

/** A feature cell with no value (the generator's sentinel; a float column may also hold NaN). */
export const MISSING = -1.0;

/** A numeric column in its own width: what pandas would hold (64-bit integers are read as float64). */
export type NumericColumn = Float64Array | Float32Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/** A zeroed column of `column`'s own type and `n` rows. */
export function columnLike(column: NumericColumn, n: number): NumericColumn {
  return new (column.constructor as new (n: number) => NumericColumn)(n);
}

/** A column as float64, for the scoring kernels: itself when it already is one, else a widened copy. */
export function asFloat64(column: NumericColumn): Float64Array {
  return column instanceof Float64Array ? column : Float64Array.from(column);
}

/** A frame with the columns `names` (as float64) and no rows: a split's shape without its data. */
export function columnsWithoutRows(names: string[]): Frame {
  return { ids: [], exped: [], columns: Object.fromEntries(names.map((name) => [name, new Float64Array(0)])) };
}

export function frameLength(frame: Frame): number {
  return frame.ids.length;
}

/** The rows at `rows` (indices), as a new frame. */
export function takeRows(frame: Frame, rows: ArrayLike<number>): Frame {
  const columns: Record<string, NumericColumn> = {};
  for (const [name, col] of Object.entries(frame.columns)) {
    const out = columnLike(col, rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = col[rows[i]];
    columns[name] = out;
  }
  return {
    ids: Array.from({ length: rows.length }, (_, i) => frame.ids[rows[i]]),
    exped: Array.from({ length: rows.length }, (_, i) => frame.exped[rows[i]]),
    columns,
  };
}

/** Only the named columns (ids and exped always kept). */
export function selectColumns(frame: Frame, names: string[]): Frame {
  const columns: Record<string, NumericColumn> = {};
  for (const name of names) {
    const col = frame.columns[name];
    if (!col) throw new Error(`Frame has no column '${name}'`);
    columns[name] = col;
  }
  return { ids: frame.ids, exped: frame.exped, columns };
}

/** Row indices per exped label, in first-seen order of the labels and row order within each. */
export function rowsByExped(frame: Frame): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  frame.exped.forEach((label, i) => {
    const rows = groups.get(label);
    if (rows) rows.push(i);
    else groups.set(label, [i]);
  });
  return groups;
}

/** Frames with the same columns, one after another. */
export function concatFrames(frames: Frame[]): Frame {
  const names = frames.length > 0 ? Object.keys(frames[0].columns) : [];
  const n = frames.reduce((s, f) => s + f.ids.length, 0);
  const columns: Record<string, NumericColumn> = {};
  for (const name of names) {
    const out = columnLike(frames[0].columns[name], n);
    let at = 0;
    for (const f of frames) {
      const col = f.columns[name];
      if (!col) throw new Error(`concatFrames: a frame has no column '${name}'`);
      out.set(col, at);
      at += col.length;
    }
    columns[name] = out;
  }
  return { ids: frames.flatMap((f) => f.ids), exped: frames.flatMap((f) => f.exped), columns };
}

/**
 * A zeroed column on a SharedArrayBuffer, for producers of large frames: scoring worker threads
 * (`scoreFrameInParallel`) then read its rows in place instead of being sent copies of them.
 */
export function sharedColumn(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(n * Float64Array.BYTES_PER_ELEMENT));
}
