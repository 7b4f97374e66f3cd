import { availableParallelism } from "node:os";
import { asFloat64, type Frame, type NumericColumn } from "../domain/frame.js";
import { DuplicateIdError } from "./align.js";
import { compareExpeds } from "./exped-order.js";
import { prepareExped, scoreInTruthRows, type ExpedTerms, type ExpedTruth, type KeyedExpedTruth } from "./exped.js";
import { exposuresOf, type CoMoments } from "./exposure.js";
import type { HexKeys } from "./hex-ids.js";
import { packIds, unpackIds, type PackedIds } from "./packed-ids.js";
import { runChunked, workerModule } from "./workers.js";

/** Which columns of a Frame hold the prediction, the realised target, the designated benchmark and the core features. */
export interface FrameColumns {
  prediction: string;
  target: string;
  benchmark: string | null;
  core: string[];
}

/** One exped of a frame: its rows ([start, end) when contiguous, else the row indices) and its columns over them. */
export interface ExpedSlice {
  exped: string;
  rows: Rows;
  truth: ExpedTruth;
  prediction: Float64Array;
  /** Also compute the display-only `ExpedDiagnostics` (the score command's table). */
  diagnose?: boolean;
}

export type ExpedResult = { exped: string; terms: ExpedTerms; diagnostics?: ExpedDiagnostics };

/** One exped's share of the display-only diagnostics: the benchmark's own CORR, and per core feature its exposure moments. */
export interface ExpedDiagnostics {
  benchmarkCorr: number;
  exposure: CoMoments[];
}

export type Rows = [number, number] | Int32Array;

/** Frame rows above which `scoreFrameInParallel` uses worker threads. */
const PARALLEL_ROWS = 2_000_000;
/** Expeds per message to a worker. */
const CHUNK = 8;

/**
 * One prediction column scored on every exped of a frame, expeds in byte order. Rows of an exped
 * that are contiguous (the usual layout) are scored through views without copying. A repeated id
 * within an exped fails naming its frame row (1-based).
 */
export function scoreFrame(frame: Frame, columns: FrameColumns): ExpedResult[] {
  const slices = frameSlices(frame, columns);
  return slices.groups.map((g) => scoreSlice(slices.slice(g)));
}

/**
 * `scoreFrame` with the expeds spread over worker threads (above PARALLEL_ROWS rows, or
 * `opts.workers` > 0 of them) while this thread scores expeds too. Each worker is sent its expeds'
 * rows (views when a column is on a SharedArrayBuffer, see `sharedColumn`: nothing is copied;
 * copies otherwise) and runs the same code on the same values, so results are bit-identical.
 */
export async function scoreFrameInParallel(frame: Frame, columns: FrameColumns, opts: { workers?: number } = {}): Promise<ExpedResult[]> {
  const slices = frameSlices(frame, columns);
  const { groups } = slices;
  const workers = opts.workers ?? (frame.ids.length >= PARALLEL_ROWS ? availableParallelism() - 1 : 0);
  const local = (start: number, end: number) => groups.slice(start, end).map((g) => scoreSlice(slices.slice(g)));
  if (workers <= 0 || groups.length <= CHUNK) return local(0, groups.length);
  return runChunked<ExpedResult>({
    worker: workerModule("score-frame-worker", import.meta.url),
    workerData: null,
    workers,
    count: groups.length,
    chunk: CHUNK,
    local,
    message: (start, end) => ({ start, slices: groups.slice(start, end).map((g) => portableSlice(slices.slice(g))) }),
  });
}

/** prepareExped + scoreAgainst on one exped (its ids as strings or as keys); a repeated id is reported by its frame row. */
export function scoreSlice({ exped, rows, truth, prediction, diagnose }: ExpedSlice | KeyedSlice): ExpedResult {
  try {
    const prepared = prepareExped(truth);
    const terms = scoreInTruthRows(prepared, prediction);
    if (!diagnose) return { exped, terms };
    const benchmarkCorr = truth.benchmark ? scoreInTruthRows(prepared, truth.benchmark).corr : NaN;
    return { exped, terms, diagnostics: { benchmarkCorr, exposure: exposuresOf(prediction, truth.core) } };
  } catch (err) {
    if (!(err instanceof DuplicateIdError)) throw err;
    const row = Array.isArray(rows) ? rows[0] + err.index : rows[err.index];
    throw new Error(`row ${row + 1}: id '${err.id}' appears more than once in exped '${exped}'`);
  }
}

/** The exped groups of a frame in byte order, and the slice of one group (views when contiguous). */
function frameSlices(frame: Frame, columns: FrameColumns) {
  const column = (name: string) => {
    const col = frame.columns[name];
    if (!col) throw new Error(`missing column '${name}'`);
    return col;
  };
  const prediction = column(columns.prediction);
  const target = column(columns.target);
  const benchmark = columns.benchmark === null ? null : column(columns.benchmark);
  const core = columns.core.map(column);
  const slice = ({ exped, rows }: { exped: string; rows: Rows }): ExpedSlice => {
    const pick = (col: NumericColumn) => pickRows(col, rows);
    const ids = Array.isArray(rows) ? frame.ids.slice(rows[0], rows[1]) : Array.from(rows, (r) => frame.ids[r]);
    return { exped, rows, truth: { ids, target: pick(target), benchmark: benchmark && pick(benchmark), core: core.map(pick) }, prediction: pick(prediction) };
  };
  return { groups: expedGroups(frame.exped), slice };
}

/** An ExpedSlice whose ids are keys (`HexKeys`), as a file reader makes them. */
export type KeyedSlice = Omit<ExpedSlice, "truth"> & { truth: KeyedExpedTruth };

/** An ExpedSlice as posted to a worker: its ids packed into one string (`packIds`), or keys. */
export type PortableSlice = Omit<ExpedSlice, "truth"> & { truth: Omit<ExpedTruth, "ids"> & { ids: PackedIds | HexKeys } };

/**
 * A slice to post to a worker: a view on shared memory travels as a reference to it; any other
 * array is copied to one that owns its memory (a view would carry its whole frame column); ids
 * are packed (`PackedIds`).
 */
export function portableSlice(s: ExpedSlice): PortableSlice {
  const own = (col: Float64Array) => (col.buffer instanceof SharedArrayBuffer ? col : col.slice());
  const { ids, target, benchmark, core } = s.truth;
  return { ...s, truth: { ids: packIds(ids), target: own(target), benchmark: benchmark && own(benchmark), core: core.map(own) }, prediction: own(s.prediction) };
}

/** The slice a `portableSlice` was made from (equal ids, the same columns); keys stay keys. */
export function unpackSlice(s: PortableSlice): ExpedSlice | KeyedSlice {
  const { ids } = s.truth;
  return "keys" in ids ? { ...s, truth: { ...s.truth, ids } } : { ...s, truth: { ...s.truth, ids: unpackIds(ids) } };
}

/**
 * The rows of each exped label, in byte order of label. A run of one label costs one map look-up
 * and a tight scan for its end, not work per row: this runs on one thread before any is scoring.
 */
function expedGroups(labels: string[]): { exped: string; rows: Rows }[] {
  const ranges = new Map<string, [number, number]>();
  let contiguous = true;
  for (let i = 0; i < labels.length; ) {
    const label = labels[i];
    let end = i + 1;
    while (end < labels.length && labels[end] === label) end++;
    const range = ranges.get(label);
    if (!range) ranges.set(label, [i, end]);
    else contiguous = false; // runs are maximal, so an earlier run of this label ended before another label
    i = end;
  }
  const names = [...ranges.keys()].sort(compareExpeds);
  if (contiguous) return names.map((exped) => ({ exped, rows: ranges.get(exped)! }));
  const lists = new Map(names.map((name) => [name, [] as number[]]));
  labels.forEach((label, i) => lists.get(label)!.push(i));
  return names.map((exped) => ({ exped, rows: Int32Array.from(lists.get(exped)!) }));
}

function pickRows(col: NumericColumn, rows: Rows): Float64Array {
  if (!Array.isArray(rows)) return Float64Array.from(rows, (r) => col[r]);
  return asFloat64(col.subarray(rows[0], rows[1]));
}
