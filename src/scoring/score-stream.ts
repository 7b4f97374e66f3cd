import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { compareExpeds } from "./exped-order.js";
import type { PackedIds } from "./packed-ids.js";
import { portableSlice, scoreSlice, unpackSlice, type ExpedResult, type ExpedSlice, type PortableSlice, type Rows } from "./score-frame.js";
import type { ExpedTruth } from "./exped.js";
import type { HexKeys } from "./hex-ids.js";
import { acquireWorker, IN_FLIGHT, releaseWorker, workerModule } from "./workers.js";

/** One exped of a streamed scoring: its label, its truth columns and the prediction over the same rows. */
export interface ExpedInput {
  exped: string;
  /** The ids as strings, or packed or as keys (`PackedIds`, `HexKeys`: a file reader's, made without a string per row). */
  truth: ExpedTruth | (Omit<ExpedTruth, "ids"> & { ids: PackedIds | HexKeys });
  prediction: Float64Array;
  /** The source's row of each of the exped's rows, for naming a repeated id; default: its row within the exped. */
  rows?: Int32Array;
  /**
   * The source never touches these arrays again (each owns its whole buffer), so they are
   * transferred to a worker rather than copied; ids must then be packed or keys.
   */
  owned?: boolean;
  /** Also compute the display-only diagnostics (`ExpedResult.diagnostics`). */
  diagnose?: boolean;
}

/**
 * `scoreFrame` for predictions that arrive one exped at a time (a reader walking a file row group
 * by row group), so the whole history never has to be in memory: only the expeds being scored.
 * Each exped goes through the same `scoreSlice` as `scoreFrame`, so results are bit-identical to
 * scoring the frame holding the same rows; they come back in byte order of exped label, and a
 * repeated id is reported by its row within its exped (1-based). An exped label may come once.
 *
 * With `opts.workers` worker threads (default: one per extra core), an exped goes to a worker
 * that has fewer than IN_FLIGHT expeds or QUEUED_ROWS rows pending, else is scored on this thread,
 * which also runs the reader, so the split follows whichever side is slower. The queue holds
 * about a reader's batch of rows, so a worker keeps scoring while this thread decodes the next. Arrays sent to a worker are copied once
 * (the source keeps its own) and the copies transferred, not cloned again.
 */
export async function scoreExpedStream(
  source: Iterable<ExpedInput> | AsyncIterable<ExpedInput>,
  opts: { workers?: number } = {},
): Promise<ExpedResult[]> {
  const module = workerModule("score-frame-worker", import.meta.url);
  const results: ExpedResult[] = [];
  const labels = new Set<string>();
  const pool = Array.from({ length: opts.workers ?? availableParallelism() - 1 }, () => streamWorker(module, results));
  let failed = false;
  try {
    for await (const input of source) {
      const { exped, truth, prediction, diagnose } = input;
      if (labels.has(exped)) throw new Error(`exped '${exped}' appears more than once in the stream`);
      labels.add(exped);
      const rows: Rows = input.rows ?? [0, prediction.length];
      const free = pool.find((w) => w.ready && (w.pending < IN_FLIGHT || w.rows < QUEUED_ROWS) && !w.error);
      if (Array.isArray(truth.ids)) {
        const slice: ExpedSlice = { exped, rows, truth: { ...truth, ids: truth.ids }, prediction, diagnose };
        if (free) free.post(slice);
        else results.push(scoreSlice(slice));
      } else {
        const packed: PortableSlice = { exped, rows, truth: { ...truth, ids: truth.ids }, prediction, diagnose };
        if (free) free.give(input.owned ? packed : ownedCopy(packed));
        else results.push(scoreSlice(unpackSlice(packed)));
      }
      const error = pool.find((w) => w.error)?.error;
      if (error) throw error;
      if (pool.length > 0) await new Promise((resolve) => setImmediate(resolve)); // let worker replies in
    }
    await Promise.all(pool.map((w) => w.drained()));
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    await Promise.all(pool.map((w) => w.release(!failed)));
  }
  return results.sort((a, b) => compareExpeds(a.exped, b.exped));
}

/** Rows a worker may have queued beyond IN_FLIGHT expeds: about one batch of a file reader. */
const QUEUED_ROWS = 1 << 16;

/** A worker of one stream: posts single expeds, collects their results, and remembers a failure. */
function streamWorker(module: URL, results: ExpedResult[]) {
  const { thread, ready } = acquireWorker(module);
  let idle = () => {};
  const state = {
    ready,
    pending: 0,
    /** Rows of the pending expeds, and each one's (they come back in the order sent). */
    rows: 0,
    sizes: [] as number[],
    error: null as Error | null,
    post(slice: ExpedSlice) {
      const own = portableSlice(slice);
      const given = new Set(columnsOf(slice));
      const copies = columnsOf(own).filter((col) => !given.has(col));
      thread.postMessage({ start: 0, slices: [own] }, copies.map((col) => col.buffer as ArrayBuffer));
      sent(slice.prediction.length);
    },
    /** Posts a slice whose arrays nobody else holds: they move to the worker without a copy. */
    give(slice: PortableSlice) {
      const rows = Array.isArray(slice.rows) ? [] : [slice.rows];
      const keys = "keys" in slice.truth.ids ? [slice.truth.ids.keys] : [];
      thread.postMessage({ start: 0, slices: [slice] }, [...columnsOf(slice), ...rows, ...keys].map((col) => col.buffer as ArrayBuffer));
      sent(slice.prediction.length);
    },
    drained: () => new Promise<void>((resolve, reject) => {
      if (state.error) reject(state.error);
      else if (state.pending === 0) resolve();
      else idle = () => (state.error ? reject(state.error) : resolve());
    }),
    release: (reuse: boolean) => {
      detach(thread);
      return releaseWorker(module, thread, reuse && !state.error);
    },
  };
  const sent = (rows: number) => {
    state.pending++;
    state.rows += rows;
    state.sizes.push(rows);
  };
  const fail = (err: Error) => {
    state.error = err;
    idle();
  };
  const onMessage = (msg: { ready?: true; results?: ExpedResult[] }) => {
    if (msg.results) {
      results.push(...msg.results);
      state.pending--;
      state.rows -= state.sizes.shift()!;
      if (state.pending === 0) idle();
    } else state.ready = true;
  };
  const onExit = (code: number) => fail(new Error(`scoring worker exited with code ${code}`));
  thread.on("message", onMessage).on("error", fail).on("exit", onExit);
  const detach = (t: Worker) => t.off("message", onMessage).off("error", fail).off("exit", onExit);
  return state;
}

/** A packed slice in arrays of its own, for `give`. */
function ownedCopy(s: PortableSlice): PortableSlice {
  const { ids, target, benchmark, core } = s.truth;
  const copied = "keys" in ids ? { width: ids.width, keys: ids.keys.slice() } : ids;
  return { ...s, rows: Array.isArray(s.rows) ? s.rows : s.rows.slice(), truth: { ids: copied, target: target.slice(), benchmark: benchmark && benchmark.slice(), core: core.map((c) => c.slice()) }, prediction: s.prediction.slice() };
}

function columnsOf({ truth, prediction }: Pick<ExpedSlice | PortableSlice, "truth" | "prediction">): Float64Array[] {
  return [prediction, truth.target, ...(truth.benchmark ? [truth.benchmark] : []), ...truth.core];
}
