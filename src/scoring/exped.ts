import { availableParallelism } from "node:os";
import { aimcOfGaussian } from "./aimc.js";
import { alignValues, indexIds, orderHexKeys, orderIds, type IdOrder } from "./align.js";
import { sameStrings } from "../domain/same-strings.js";
import { corrOfGaussian, poweredTarget } from "./corr.js";
import { gaussianise } from "./gaussian.js";
import type { HexKeys } from "./hex-ids.js";
import { coreFit, type CoreFit } from "./core-fit.js";
import { imputeCore, ncorrOfGaussian } from "./ncorr.js";
import { gather, isConstant } from "./vector.js";
import { runChunked, runOnWorker, workerModule } from "./workers.js";
import { workspace } from "./workspace.js";

/** The three terms of one prediction on one exped; `n` is the number of rows CORR was computed on. */
export interface ExpedTerms {
  n: number;
  corr: number;
  aimc: number | null;
  ncorr: number;
}

/** The truth side of one exped: row ids, realised target, designated benchmark (null = none), core feature columns. */
export interface ExpedTruth {
  ids: string[];
  target: Float64Array;
  benchmark: Float64Array | null;
  core: Float64Array[];
}

/** An ExpedTruth whose ids come as keys (`HexKeys`), as a file reader makes them. */
export type KeyedExpedTruth = Omit<ExpedTruth, "ids"> & { ids: HexKeys };

/** Target-side quantities over one row set (indices into the id-sorted arrays). */
interface Side {
  rows: Int32Array;
  n: number;
  tc: Float64Array;
  poweredTc: Float64Array;
  constantTarget: boolean;
}

/**
 * The shared target-side work of one exped, done once for any number of predictions: ids in byte
 * order, target/benchmark/imputed core in that order, and for the rows where the target is finite
 * the centred and powered target and the least-squares core fit (CORR, NCORR); for the rows where
 * target and benchmark are finite, the centred target and the gaussianised benchmark (AIMC).
 * A prediction missing some of those rows gets the same quantities rebuilt over its own rows.
 */
export interface PreparedExped {
  readonly ids: IdOrder;
  index: Map<string, number> | null;
  readonly target: Float64Array;
  readonly benchmark: Float64Array | null;
  readonly core: Float64Array[];
  readonly corrSide: Side & { fit: CoreFit };
  /** null when no row has both a finite target and a finite benchmark: AIMC is null. */
  readonly aimcSide: (Side & { gb: Float64Array }) | null;
}

/**
 * Total prediction rows above which `scoreSubmissions` spreads the work over worker threads (some
 * 25 ms of scoring: its workers are parked between settlements, so only the first pays their start).
 */
const PARALLEL_ROWS = 100_000;
/** Submissions per message to a worker. */
const CHUNK = 32;

export function prepareExped(truth: ExpedTruth | KeyedExpedTruth): PreparedExped {
  const size = Array.isArray(truth.ids) ? truth.ids.length : truth.ids.keys.length / 2;
  checkLength("target", truth.target, size);
  if (truth.benchmark) checkLength("benchmark", truth.benchmark, size);
  truth.core.forEach((col, j) => checkLength(`core feature ${j}`, col, size));
  const ids = Array.isArray(truth.ids) ? orderIds(truth.ids) : orderHexKeys(truth.ids);
  const target = inIdOrder(truth.target, ids.position);
  const benchmark = truth.benchmark && inIdOrder(truth.benchmark, ids.position);
  const core = truth.core.map((col) => {
    const sorted = inIdOrder(col, ids.position);
    imputeCore(sorted);
    return sorted;
  });
  const all = finiteRows(target, null, size);
  const withBenchmark = benchmark && finiteRows(benchmark, all, all.length);
  const corr = corrSide(target, core, all);
  return {
    ids,
    index: null,
    target,
    benchmark,
    core,
    corrSide: corr,
    aimcSide: withBenchmark && withBenchmark.length > 0 ? aimcSide(target, benchmark, withBenchmark, corr) : null,
  };
}

/** Roughly the bytes a prepared exped holds: its float64 columns (target, benchmark, core) and their sides. */
export function preparedBytes(p: PreparedExped): number {
  return 8 * p.target.length * (4 + (p.benchmark ? 2 : 0) + p.core.length) + 16 * p.ids.sorted.length;
}

/** Scores one prediction (keyed by `ids`; rows not in the exped are ignored) against a prepared exped. */
export function scoreAgainst(p: PreparedExped, ids: readonly string[], prediction: Float64Array): ExpedTerms {
  checkLength("prediction", prediction, ids.length);
  if (sameStrings(ids, p.ids.original)) return scoreInTruthRows(p, prediction);
  const size = p.target.length;
  const aligned = workspace.ensure(size).aligned;
  p.index ??= indexIds(p.ids.sorted);
  alignValues(p.index, size, ids, prediction, aligned);
  return scoreAligned(p, aligned);
}

/** `scoreAgainst` of a prediction over the truth's own rows in the truth's row order. */
export function scoreInTruthRows(p: PreparedExped, prediction: Float64Array): ExpedTerms {
  const size = p.target.length;
  checkLength("prediction", prediction, size);
  const aligned = workspace.ensure(size).aligned;
  const position = p.ids.position;
  if (position) for (let i = 0; i < size; i++) aligned[position[i]] = prediction[i];
  else aligned.set(prediction);
  return scoreAligned(p, aligned);
}

/** The terms of a prediction already placed in id order (`aligned`: NaN where it has no value). */
function scoreAligned(p: PreparedExped, aligned: Float64Array): ExpedTerms {
  const ws = workspace;
  let side = p.corrSide;
  if (!allFinite(aligned, side.rows)) side = corrSide(p.target, p.core, finiteRows(aligned, side.rows, side.n));
  const n = side.n;
  gather(aligned, side.rows, n, ws.values);
  gaussianise(ws.values, n, ws.gp);
  const scorable = n >= 2 && !side.constantTarget;
  const corr = scorable ? corrOfGaussian(ws.gp, n, side.poweredTc, ws.tmp) : 0;
  const ncorr = scorable ? ncorrOfGaussian(ws.gp, n, side.fit, side.poweredTc, ws.residual) : 0;

  let aimc: number | null = null;
  let b = p.aimcSide;
  if (b && p.benchmark) {
    if (!allFinite(aligned, b.rows)) b = aimcSide(p.target, p.benchmark, finiteRows(aligned, b.rows, b.n), side);
    // AIMC rows are a subset of CORR rows, so equal counts mean the same rows and the same g(p).
    let gp = ws.gp;
    if (b.n !== n) {
      gather(aligned, b.rows, b.n, ws.values);
      gaussianise(ws.values, b.n, ws.tmp);
      gp = ws.tmp;
    }
    aimc = b.n >= 2 && !b.constantTarget ? aimcOfGaussian(gp, b.gb, b.tc, b.n) : 0;
  }
  return { n, corr, aimc, ncorr };
}

/** One exped, one prediction (keyed by `predictionIds`, default the truth's ids). */
export function scoreExped(input: ExpedTruth & { predictionIds?: string[]; prediction: Float64Array }): ExpedTerms {
  return scoreAgainst(prepareExped(input), input.predictionIds ?? input.ids, input.prediction);
}

/**
 * Settles many submissions of one round against one exped. The target side is prepared once; above
 * PARALLEL_ROWS prediction rows (or when `opts.workers` > 0 asks for that many worker threads),
 * chunks of submissions go to worker threads that each prepare the same truth, while this thread
 * scores chunks too; the workers are kept for the next call. Each worker runs the same code on the
 * same data, so the results are bit-identical to `scoreAgainst` on one thread. `opts.prepared` is
 * `prepareExped(truth)` when the caller has it already.
 */
export async function scoreSubmissions(
  truth: ExpedTruth,
  subs: { ids: readonly string[]; prediction: Float64Array }[],
  opts: { workers?: number; prepared?: PreparedExped } = {},
): Promise<ExpedTerms[]> {
  const prepared = opts.prepared ?? prepareExped(truth);
  const rows = subs.reduce((sum, s) => sum + s.prediction.length, 0);
  const workers = opts.workers ?? (rows >= PARALLEL_ROWS ? availableParallelism() - 1 : 0);
  const local = (start: number, end: number) =>
    subs.slice(start, end).map((s) => scoreAgainst(prepared, s.ids, s.prediction));
  if (workers <= 0 || subs.length <= CHUNK) return local(0, subs.length);
  return runChunked<ExpedTerms>({
    worker: workerModule("settle-worker", import.meta.url),
    workerData: null,
    workers,
    count: subs.length,
    chunk: CHUNK,
    local,
    message: (start, end, first) => settleChunk(truth, subs, start, end, first),
  });
}

/**
 * `scoreSubmissions` for a caller that goes on meanwhile: every submission is scored on a worker
 * thread (the settle worker, kept for the next call), bit-identical to this thread's results. Such
 * jobs queue for one worker, so a burst of them never starts more. Null when the submissions hold
 * fewer than PARALLEL_ROWS rows, too few to be worth a worker.
 */
export function scoreSubmissionsAside(truth: ExpedTruth, subs: { ids: readonly string[]; prediction: Float64Array }[]): Promise<ExpedTerms[]> | null {
  if (!worthScoringAside(subs.reduce((sum, s) => sum + s.prediction.length, 0))) return null;
  const job = asideQueue.then(() => runOnWorker<ExpedTerms>(workerModule("settle-worker", import.meta.url), settleChunk(truth, subs, 0, subs.length, true)));
  asideQueue = job.catch(() => undefined);
  return job;
}

/** Whether submissions of `rows` prediction rows in all are scored aside (scoreSubmissionsAside), not left to the caller. */
export function worthScoringAside(rows: number): boolean {
  return rows >= PARALLEL_ROWS;
}

/** The last job of `scoreSubmissionsAside` queued: the next one starts once it is done. */
let asideQueue: Promise<unknown> = Promise.resolve();

/** A chunk for the settle worker: a thread's first brings the truth; submissions in the truth's row order travel without their ids. */
function settleChunk(truth: ExpedTruth, subs: { ids: readonly string[]; prediction: Float64Array }[], start: number, end: number, first: boolean) {
  return {
    start,
    truth: first ? truth : undefined,
    subs: subs.slice(start, end).map((s) => ({ ids: sameStrings(s.ids, truth.ids) ? null : s.ids, prediction: s.prediction })),
  };
}

function corrSide(target: Float64Array, core: Float64Array[], rows: Int32Array): Side & { fit: CoreFit } {
  return { ...targetSide(target, rows), fit: coreFit(core, rows, rows.length) };
}

/**
 * AIMC rows are always a subset of the CORR rows `corr` was built on, so when the counts are equal
 * the rows are the same and so is the target side: it is shared, not recomputed.
 */
function aimcSide(target: Float64Array, benchmark: Float64Array, rows: Int32Array, corr: Side): Side & { gb: Float64Array } {
  const n = rows.length;
  const gb = new Float64Array(n);
  gather(benchmark, rows, n, gb);
  gaussianise(gb, n, gb);
  const { tc, poweredTc, constantTarget } = n === corr.n ? corr : targetSide(target, rows);
  return { rows, n, tc, poweredTc, constantTarget, gb };
}

function targetSide(target: Float64Array, rows: Int32Array): Side {
  const n = rows.length;
  const t = new Float64Array(n);
  gather(target, rows, n, t);
  const tc = new Float64Array(n);
  const poweredTc = new Float64Array(n);
  poweredTarget(t, n, tc, poweredTc);
  return { rows, n, tc, poweredTc, constantTarget: n > 0 && isConstant(t, n) };
}

/** The entries of `rows` (or 0..n-1 when null) where `x` is finite. */
function finiteRows(x: Float64Array, rows: Int32Array | null, n: number): Int32Array {
  const out = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const row = rows ? rows[i] : i;
    if (Number.isFinite(x[row])) out[m++] = row;
  }
  return m === n ? out : out.slice(0, m);
}

function allFinite(x: Float64Array, rows: Int32Array): boolean {
  for (let i = 0; i < rows.length; i++) if (!Number.isFinite(x[rows[i]])) return false;
  return true;
}

/** `col` in id order, given original row → sorted position (null: already in order). */
function inIdOrder(col: Float64Array, position: Int32Array | null): Float64Array {
  if (!position) return Float64Array.from(col);
  const out = new Float64Array(position.length);
  for (let i = 0; i < position.length; i++) out[position[i]] = col[i];
  return out;
}

function checkLength(name: string, col: ArrayLike<number>, size: number): void {
  if (col.length !== size) throw new Error(`${name} has ${col.length} values for ${size} ids`);
}
