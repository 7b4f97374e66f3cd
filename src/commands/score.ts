import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import type { Command } from "commander";
import { readFrameCsv } from "../data/csv.js";
import type { Frame } from "../data/frame.js";
import { readFrameParquet } from "../data/parquet.js";
import { scoreFrame } from "../scoring/backtest.js";
import { featureExposure, seriesDiagnostics } from "../scoring/diagnostics.js";
import { MISSING } from "../data/schema.js";

/** `basecamp score <file>`: CORR, AIMC and NCORR per exped of a predictions file, and their summary. */

export interface TermSummary {
  mean: number;
  std: number;
  sharpe: number;
}

export interface ScoreReport {
  expeds: { exped: string; n: number; corr: number; aimc: number | null; ncorr: number }[];
  summary: { corr: TermSummary; aimc: TermSummary; ncorr: TermSummary };
  /** Display only (SCORING.md): never part of `--json`, never a rank. */
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

/** Reads a .csv or .parquet file and scores its `prediction` column on every exped. */
export async function scoreFile(path: string, opts: { core: string[] }): Promise<ScoreReport> {
  const needed = [PREDICTION, TARGET, BENCHMARK, ...opts.core];
  const frame = await readScoredFrame(path, needed);
  const columns = { target: TARGET, benchmark: BENCHMARK, core: opts.core };
  const expeds = scoreFrame(frame, { ...columns, prediction: PREDICTION }).map(({ exped, terms }) => ({
    exped,
    n: terms.n,
    corr: terms.corr,
    aimc: terms.aimc,
    ncorr: terms.ncorr,
  }));
  const benchmarkCorr = scoreFrame(frame, { ...columns, prediction: BENCHMARK }).map(({ terms }) => terms.corr);
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
    diagnostics: diagnose(expeds, benchmarkCorr, frame, opts.core),
  };
}

function diagnose(expeds: ScoreReport["expeds"], benchmarkCorr: number[], frame: Frame, core: string[]): ScoreDiagnostics {
  const series = {
    corr: seriesDiagnostics(expeds.map((e) => e.corr), benchmarkCorr),
    aimc: seriesDiagnostics(expeds.flatMap((e) => (e.aimc === null ? [] : [e.aimc]))),
    ncorr: seriesDiagnostics(expeds.map((e) => e.ncorr)),
  };
  const per = (k: "max_drawdown" | "autocorrelation") => ({ corr: series.corr[k], aimc: series.aimc[k], ncorr: series.ncorr[k] });
  const p = frame.columns[PREDICTION];
  const exposures = core.map((name) => {
    const f = frame.columns[name];
    const rows = [...p.keys()].filter((i) => Number.isFinite(p[i]) && Number.isFinite(f[i]) && f[i] !== MISSING);
    return featureExposure(Float64Array.from(rows, (i) => p[i]), [Float64Array.from(rows, (i) => f[i])]);
  });
  return {
    max_drawdown: per("max_drawdown"),
    autocorrelation: per("autocorrelation"),
    benchmark_corr: series.corr.benchmark_corr as number,
    feature_exposure: core.length === 0 ? null : Math.max(...exposures),
  };
}

/** A table per exped, then the mean, std and Sharpe of each term. */
export function formatScoreReport(r: ScoreReport): string {
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

export function registerScoreCommand(program: Command): void {
  program
    .command("score")
    .description("score a predictions file offline: CORR, AIMC and NCORR per exped, and their summary")
    .argument("<file>", ".csv or .parquet with columns id, exped, prediction, target, v1_designated and the core columns")
    .option("--core <columns>", "comma-separated core feature columns for NCORR", "")
    .option("--json", "print the report as JSON")
    .action(async (file: string, opts: { core: string; json?: boolean }) => {
      const core = opts.core.split(",").map((s) => s.trim()).filter(Boolean);
      let report: ScoreReport;
      try {
        report = await scoreFile(file, { core });
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
      const { expeds, summary } = report;
      process.stdout.write(opts.json ? JSON.stringify({ expeds, summary }) + "\n" : formatScoreReport(report));
    });
}

/** The file's frame, with every `needed` column and at least one row. */
async function readScoredFrame(path: string, needed: string[]): Promise<Frame> {
  const frame = await readFrame(path, needed);
  if (frame.ids.length === 0) throw new Error("no rows to score (the file has its columns and nothing under them)");
  return frame;
}

async function readFrame(path: string, needed: string[]): Promise<Frame> {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return readFrameCsv(await readFile(path, "utf8"), { columns: needed });
  if (ext !== ".parquet") throw new Error(`expected a .csv or .parquet file, got '${ext || "no extension"}'`);
  const frame = readFrameParquet(await readFile(path));
  for (const name of needed) if (!frame.columns[name]) throw new Error(`missing column '${name}'`);
  return frame;
}
