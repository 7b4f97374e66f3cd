import { extname } from "node:path";
import { gatherExpeds, InterleavedExpeds, lastRowOfEachExped } from "../data/exped-inputs.js";
import type { BatchSource, RowBatch } from "../data/row-batch.js";
import type { ExpedResult } from "../scoring/score-frame.js";
import { seriesDiagnostics } from "../scoring/diagnostics.js";
import { absPearson, mergeMoments, NO_ROWS } from "../scoring/exposure.js";
import { scoreExpedStream, type ExpedInput } from "../scoring/score-stream.js";

/** `basecamp score <file>`: CORR, AIMC and NCORR per exped of a predictions file, and their summary. */

export interface TermSummary {
  mean: number;
  std: number;
  sharpe: number;
}

/** What `--json` prints. */
export interface ScoreReport {
  expeds: { exped: string; n: number; corr: number; aimc: number | null; ncorr: number }[];
  summary: { corr: TermSummary; aimc: TermSummary; ncorr: TermSummary };
}

/** The table's report: the terms and the display-only diagnostics (SCORING.md), never part of `--json`, never a rank. */
export interface DiagnosedReport extends ScoreReport {
  diagnostics: ScoreDiagnostics;
}

type Terms = { corr: number; aimc: number; ncorr: number };

export interface ScoreDiagnostics {
  max_drawdown: Terms;
  autocorrelation: Terms;
  /** pearson of the per-exped CORR series with the designated benchmark's own per-exped CORR series. */
  benchmark_corr: number;
  /** max over the core features of |pearson(prediction, feature)| over the rows where both are present; null without --core. */
  feature_exposure: number | null;
}

/** The columns a scored file must have besides `id` and `exped`. */
const PREDICTION = "prediction";
const TARGET = "target";
const BENCHMARK = "v1_designated";

export interface ScoreOptions {
  core: string[];
  workers?: number;
  /** Told how many of the rows read were not scored because their prediction or target is not finite (empty, NaN, ±inf). */
  onDropped?: (dropped: number, read: number) => void;
}

/** Scores a .csv or .parquet file's `prediction` column on every exped: what `--json` prints. */
export async function scoreFileTerms(path: string, opts: ScoreOptions): Promise<ScoreReport> {
  return report(await scoreExpeds(path, { ...opts, diagnose: false }));
}

/** `scoreFileTerms` and the display-only diagnostics, for the table. */
export async function scoreFile(path: string, opts: ScoreOptions): Promise<DiagnosedReport> {
  const results = await scoreExpeds(path, { ...opts, diagnose: true });
  return { ...report(results), diagnostics: diagnose(results, opts.core.length) };
}

/**
 * Streams the file through the scoring workers, an exped at a time as soon as its rows are read
 * (`gatherExpeds`), so memory holds the expeds in flight, not the file. A file whose expeds are
 * not in runs is read a second time, its expeds then handed over at their last row.
 */
async function scoreExpeds(path: string, opts: ScoreOptions & { diagnose: boolean }): Promise<ExpedResult[]> {
  const source = batchSource(path);
  const names = [PREDICTION, TARGET, BENCHMARK, ...opts.core];
  let read = 0;
  const inputs = async function* (lastRows: Map<string, number> | null): AsyncGenerator<ExpedInput> {
    read = 0;
    for await (const { exped, ids, rows, columns } of gatherExpeds(source(names), names.length, lastRows)) {
      const [prediction, target, benchmark, ...core] = columns;
      read += prediction.length;
      yield { exped, truth: { ids, target, benchmark, core }, prediction, rows, owned: true, diagnose: opts.diagnose };
    }
  };
  let results: ExpedResult[];
  try {
    results = await scoreExpedStream(inputs(null), { workers: opts.workers });
  } catch (err) {
    if (!(err instanceof InterleavedExpeds)) throw err;
    results = await scoreExpedStream(inputs(await lastRowOfEachExped(source([]))), { workers: opts.workers });
  }
  if (results.length === 0) throw new Error("no rows to score (the file has its columns and nothing under them)");
  opts.onDropped?.(read - results.reduce((sum, r) => sum + r.terms.n, 0), read);
  return results;
}

/**
 * The file's reader. Its module is loaded only when the first batch is asked for: the parquet one
 * brings arrow and parquet-wasm, which then load while the scoring workers start rather than
 * before, and a CSV file never needs them.
 */
function batchSource(path: string): BatchSource {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return (columns) => lazily(async () => (await import("../data/csv-batches.js")).csvBatches(path)(columns));
  if (ext === ".parquet") return (columns) => lazily(async () => (await import("../data/parquet-batches.js")).parquetBatches(path)(columns));
  throw new Error(`expected a .csv or .parquet file, got '${ext || "no extension"}'`);
}

/** The batches of a source made when they are first asked for. */
async function* lazily(make: () => Promise<AsyncIterable<RowBatch>>): AsyncGenerator<RowBatch> {
  yield* await make();
}

function report(results: ExpedResult[]): ScoreReport {
  const expeds = results.map(({ exped, terms }) => ({ exped, n: terms.n, corr: terms.corr, aimc: terms.aimc, ncorr: terms.ncorr }));
  const summarise = (values: number[]): TermSummary => {
    const { mean, std, sharpe } = seriesDiagnostics(values);
    return { mean, std, sharpe };
  };
  return {
    expeds,
    summary: {
      corr: summarise(expeds.map((e) => e.corr)),
      aimc: summarise(expeds.flatMap((e) => (e.aimc === null ? [] : [e.aimc]))),
      ncorr: summarise(expeds.map((e) => e.ncorr)),
    },
  };
}

/** The table's diagnostics from the expeds' own shares (`ExpedDiagnostics`), merged in exped order. */
function diagnose(results: ExpedResult[], features: number): ScoreDiagnostics {
  const terms = results.map((r) => r.terms);
  const series = {
    corr: seriesDiagnostics(terms.map((t) => t.corr), results.map((r) => r.diagnostics!.benchmarkCorr)),
    aimc: seriesDiagnostics(terms.flatMap((t) => (t.aimc === null ? [] : [t.aimc]))),
    ncorr: seriesDiagnostics(terms.map((t) => t.ncorr)),
  };
  const per = (k: "max_drawdown" | "autocorrelation") => ({ corr: series.corr[k], aimc: series.aimc[k], ncorr: series.ncorr[k] });
  const exposures = Array.from({ length: features }, (_, j) => absPearson(results.reduce((m, r) => mergeMoments(m, r.diagnostics!.exposure[j]), NO_ROWS)));
  return {
    max_drawdown: per("max_drawdown"),
    autocorrelation: per("autocorrelation"),
    benchmark_corr: series.corr.benchmark_corr as number,
    feature_exposure: features === 0 ? null : Math.max(...exposures),
  };
}

/** A table per exped, then the mean, std and Sharpe of each term. */
export function formatScoreReport(r: DiagnosedReport): string {
  const num = (v: number | null) => (v === null ? "null" : v.toFixed(6));
  const rows = [
    ["exped", "n", "corr", "aimc", "ncorr"],
    ...r.expeds.map((e) => [e.exped, String(e.n), num(e.corr), num(e.aimc), num(e.ncorr)]),
    [],
    ["summary", "", "corr", "aimc", "ncorr"],
    ...(["mean", "std", "sharpe"] as const).map((k) => [k, "", num(r.summary.corr[k]), num(r.summary.aimc[k]), num(r.summary.ncorr[k])]),
    [],
    ["diagnostics (display only)", "", "corr", "aimc", "ncorr"],
    ...(["max_drawdown", "autocorrelation"] as const).map((k) => [k, "", num(r.diagnostics[k].corr), num(r.diagnostics[k].aimc), num(r.diagnostics[k].ncorr)]),
    ["corr with v1_designated's corr", "", num(r.diagnostics.benchmark_corr)],
    ["feature exposure", "", num(r.diagnostics.feature_exposure)],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length)));
  return rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ").trimEnd()).join("\n") + "\n";
}
