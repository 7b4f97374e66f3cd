import type { Command } from "commander";
import { DEFAULT_SCENARIO } from "../../sim/builtin-scenarios.js";
import type { BacktestFlags } from "./backtest.js";
import { pythonOptions } from "./python-flags.js";

/** `basecamp backtest <strategy>`: how a strategy would have scored on the validation expeds, beside v1_designated and others. */
export function registerBacktestCommand(program: Command): void {
  const command = program
    .command("backtest")
    .description("walk a strategy over a scenario's validation expeds and score it beside v1_designated and --against strategies")
    .argument("<strategy>", "a Python file (.py), a model file (.pkl), a TypeScript/JavaScript module, a predictions file (.csv/.parquet with id, prediction), or a built-in strategy's name")
    .option("--scenario <scenario>", "the scenario (a JSON file or a built-in's name) whose dataset and scoring to use", DEFAULT_SCENARIO)
    .option("--against <strategies>", "comma-separated strategies to show side by side (built-in names or files)", "")
    .option("--params <json>", "the strategy's parameters as a JSON object (a Python file's PARAMS overrides)")
    .option("--json", "print the report as JSON")
    .option("--html <file>", "also write the report as one self-contained HTML page")
    .option("--save-predictions <file>", "also write the strategy's predictions with the truth (.csv or .parquet), ready for `basecamp score`");
  pythonOptions(command, true).action(async (strategy: string, flags: BacktestFlags) => (await import("./backtest.js")).backtestCommand(strategy, flags));
}
