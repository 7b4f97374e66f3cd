import { extname } from "node:path";
import type { LineupOptions } from "../../sim/agents/lineup.js";
import { strategyFileKind } from "../../sim/agents/strategy-file.js";
import type { DataFlags } from "./backtest-data.js";
import { checkOutputPath, checkOutputsApart } from "./output-paths.js";
import type { PythonFlags } from "./python-flags.js";

export interface BacktestFlags extends DataFlags, PythonFlags {
  scenario: string;
  against: string;
  params?: string;
  topBottom: string;
  window: string;
  json?: boolean;
  html?: string;
  savePredictions?: string;
  keepGoing?: boolean;
  fitTimeout?: number;
  predictTimeout?: number;
  progress?: boolean;
}

/** A strategy's worker the command started before the backtest's modules loaded, and the log directory it writes to (the backtest's). */
export interface EarlyWorker {
  logDir: string;
  started: NonNullable<LineupOptions["started"]>;
}

/** The flags checked before any work (each error names the flag and its value): the parsed `--params`, and the output paths (none over `strategy`'s file or another's). */
export function checkBacktestFlags(strategy: string, flags: BacktestFlags): Record<string, unknown> {
  const params = parseParams(flags.params);
  if (flags.savePredictions && !/^\.(csv|parquet)$/i.test(extname(flags.savePredictions))) {
    throw new Error(`--save-predictions: expected a .csv or .parquet file name, got '${flags.savePredictions}'`);
  }
  if (flags.html) checkOutputPath("--html", flags.html);
  if (flags.savePredictions) checkOutputPath("--save-predictions", flags.savePredictions);
  checkOutputsApart([["--html", flags.html], ["--save-predictions", flags.savePredictions]], strategyFileKind(strategy) === null ? [] : [["the strategy file", strategy]]);
  return params;
}

function parseParams(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`--params: not JSON: ${(e as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("--params: expected a JSON object, e.g. '{\"alpha\": 1}'");
  return value as Record<string, unknown>;
}
