import { writeFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { backtest } from "../../sim/backtest/backtest.js";
import { scoredFrame } from "../../sim/backtest/scored-frame.js";
import { strategyFileKind } from "../../sim/agents/strategy-file.js";
import { loadScenario } from "../../sim/scenario.js";
import { writeFrameCsv } from "../data/csv.js";
import { writeFrameParquet } from "../data/parquet.js";
import { renderBacktestHtml } from "../report/backtest-html.js";
import { formatBacktestText } from "../report/backtest-text.js";

/** The scenario a backtest walks when none is named: the default tournament, wherever Basecamp is installed. */
const DEFAULT_BACKTEST_SCENARIO = fileURLToPath(new URL("../../scenarios/default-tournament.json", import.meta.url));

interface BacktestFlags {
  scenario?: string;
  against: string;
  params?: string;
  json?: boolean;
  html?: string;
  savePredictions?: string;
}

/** `basecamp backtest <strategy>`: how a strategy would have scored on the validation expeds, beside v1_designated and others. */
export function registerBacktestCommand(program: Command): void {
  program
    .command("backtest")
    .description("walk a strategy over a scenario's validation expeds and score it beside v1_designated and --against strategies")
    .argument("<strategy>", "a Python file (.py), a model file (.pkl), a TypeScript/JavaScript module, a predictions file (.csv/.parquet with id, prediction), or a built-in strategy's name")
    .option("--scenario <file>", "the scenario whose dataset and scoring to use (default: the default tournament)")
    .option("--against <strategies>", "comma-separated strategies to show side by side (built-in names or files)", "")
    .option("--params <json>", "the strategy's parameters as a JSON object (a Python file's PARAMS overrides)")
    .option("--json", "print the report as JSON")
    .option("--html <file>", "also write the report as one self-contained HTML page")
    .option("--save-predictions <file>", "also write the strategy's predictions with the truth (.csv or .parquet), ready for `basecamp score`")
    .action(async (strategy: string, flags: BacktestFlags) => {
      const scenarioFile = flags.scenario ?? DEFAULT_BACKTEST_SCENARIO;
      const params = parseParams(flags.params);
      const spec = (s: string) => (strategyFileKind(s) === null ? s : resolve(s));
      const against = flags.against.split(",").map((s) => s.trim()).filter(Boolean).map(spec);
      if (flags.savePredictions && !/^\.(csv|parquet)$/i.test(extname(flags.savePredictions))) {
        throw new Error(`--save-predictions: expected a .csv or .parquet file name, got '${flags.savePredictions}'`);
      }
      const progress = process.stderr.isTTY ? (settled: number, rounds: number) => process.stderr.write(`\rbacktest: ${settled} of ${rounds} expeds scored`) : undefined;
      const run = await backtest({
        strategy: spec(strategy),
        params,
        against,
        scenario: loadScenario(scenarioFile),
        scenarioName: flags.scenario ?? "default-tournament",
        onProgress: progress,
      });
      if (progress) process.stderr.write("\r\x1b[K");
      if (flags.html) await writeFile(flags.html, renderBacktestHtml(run.report));
      if (flags.savePredictions) {
        const frame = scoredFrame(run.predictions, run.world);
        await writeFile(flags.savePredictions, /\.csv$/i.test(flags.savePredictions) ? writeFrameCsv(frame) : writeFrameParquet(frame));
      }
      process.stdout.write(flags.json ? `${JSON.stringify(run.report)}\n` : formatBacktestText(run.report));
    });
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
