import { writeFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { backtest } from "../../sim/backtest/backtest.js";
import { scoredFrame } from "../../sim/backtest/scored-frame.js";
import { strategyFileKind } from "../../sim/agents/strategy-file.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { loadScenario } from "../../sim/scenario.js";
import { writeFrameCsv } from "../data/csv.js";
import { writeFrameParquet } from "../data/parquet.js";
import { renderBacktestHtml } from "../report/backtest-html.js";
import { formatBacktestText } from "../report/backtest-text.js";
import { pythonUses } from "../../sim/requirements.js";
import { announcePython, applyPythonFlags, type PythonFlags } from "./python-flags.js";

export interface BacktestFlags extends PythonFlags {
  scenario: string;
  against: string;
  params?: string;
  json?: boolean;
  html?: string;
  savePredictions?: string;
}

/** `basecamp backtest <strategy>` (defined in backtest-command.ts): how a strategy would have scored on the validation expeds. */
export async function backtestCommand(strategy: string, flags: BacktestFlags): Promise<void> {
  const params = parseParams(flags.params);
  const spec = (s: string) => (strategyFileKind(s) === null ? s : resolve(s));
  const against = flags.against.split(",").map((s) => s.trim()).filter(Boolean).map(spec);
  if (flags.savePredictions && !/^\.(csv|parquet)$/i.test(extname(flags.savePredictions))) {
    throw new Error(`--save-predictions: expected a .csv or .parquet file name, got '${flags.savePredictions}'`);
  }
  applyPythonFlags(flags);
  const scenario = loadScenario(scenarioFile(flags.scenario));
  const files = [spec(strategy), ...against].filter((s) => ["python", "pickle"].includes(strategyFileKind(s) ?? ""));
  await announcePython([...files, ...pythonUses(scenario)], "local");
  const progress = process.stderr.isTTY ? (settled: number, rounds: number) => process.stderr.write(`\rbacktest: ${settled} of ${rounds} expeds scored`) : undefined;
  const run = await backtest({
    strategy: spec(strategy),
    params,
    against,
    scenario,
    scenarioName: flags.scenario,
    onProgress: progress,
  });
  if (progress) process.stderr.write("\r\x1b[K");
  if (flags.html) await writeFile(flags.html, renderBacktestHtml(run.report));
  if (flags.savePredictions) {
    const frame = scoredFrame(run.predictions, run.world);
    await writeFile(flags.savePredictions, /\.csv$/i.test(flags.savePredictions) ? writeFrameCsv(frame) : writeFrameParquet(frame));
  }
  process.stdout.write(flags.json ? `${JSON.stringify(run.report)}\n` : formatBacktestText(run.report));
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
