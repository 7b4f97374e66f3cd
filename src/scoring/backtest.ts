import type { Frame } from "../data/frame.js";
import { compareIds, DuplicateIdError } from "./align.js";
import { prepareExped, scoreAgainst, type ExpedTerms } from "./exped.js";

/** Which columns of a Frame hold the prediction, the realised target, the designated benchmark and the core features. */
export interface FrameColumns {
  prediction: string;
  target: string;
  benchmark: string | null;
  core: string[];
}

/**
 * One prediction column scored on every exped of a frame, expeds in byte order. Rows of an exped
 * that are contiguous (the usual layout) are scored through views without copying. A repeated id
 * within an exped fails naming its frame row (1-based).
 */
export function scoreFrame(frame: Frame, columns: FrameColumns): { exped: string; terms: ExpedTerms }[] {
  const column = (name: string) => {
    const col = frame.columns[name];
    if (!col) throw new Error(`missing column '${name}'`);
    return col;
  };
  const prediction = column(columns.prediction);
  const target = column(columns.target);
  const benchmark = columns.benchmark === null ? null : column(columns.benchmark);
  const core = columns.core.map(column);
  return expedGroups(frame.exped).map(({ exped, rows }) => {
    const pick = (col: Float64Array) => pickRows(col, rows);
    const ids = Array.isArray(rows) ? frame.ids.slice(rows[0], rows[1]) : Array.from(rows, (r) => frame.ids[r]);
    try {
      const prepared = prepareExped({ ids, target: pick(target), benchmark: benchmark && pick(benchmark), core: core.map(pick) });
      return { exped, terms: scoreAgainst(prepared, ids, pick(prediction)) };
    } catch (err) {
      if (!(err instanceof DuplicateIdError)) throw err;
      const row = Array.isArray(rows) ? rows[0] + err.index : rows[err.index];
      throw new Error(`row ${row + 1}: id '${err.id}' appears more than once in exped '${exped}'`);
    }
  });
}

/** Rows of each exped: a [start, end) range when contiguous, else the row indices. */
type Rows = [number, number] | Int32Array;

function expedGroups(labels: string[]): { exped: string; rows: Rows }[] {
  const ranges = new Map<string, [number, number]>();
  let contiguous = true;
  for (let i = 0; i < labels.length; i++) {
    const range = ranges.get(labels[i]);
    if (!range) ranges.set(labels[i], [i, i + 1]);
    else if (range[1] === i) range[1] = i + 1;
    else contiguous = false;
  }
  const names = [...ranges.keys()].sort(compareIds);
  if (contiguous) return names.map((exped) => ({ exped, rows: ranges.get(exped)! }));
  const lists = new Map(names.map((name) => [name, [] as number[]]));
  labels.forEach((label, i) => lists.get(label)!.push(i));
  return names.map((exped) => ({ exped, rows: Int32Array.from(lists.get(exped)!) }));
}

function pickRows(col: Float64Array, rows: Rows): Float64Array {
  return Array.isArray(rows) ? col.subarray(rows[0], rows[1]) : Float64Array.from(rows, (r) => col[r]);
}
