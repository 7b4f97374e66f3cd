import type { Command } from "commander";
import { DEFAULT_SCENARIO } from "../../sim/builtin-scenarios.js";
import { DEFAULT_ROLLING_WINDOW, DEFAULT_TOP_BOTTOM } from "../report/backtest-report.js";
import type { BacktestFlags } from "./backtest.js";
import { runsInPythonWorker } from "../../sim/agents/strategy-file.js";
import { localSandbox } from "../participant/isolation.js";
import { applyPythonFlags, pythonOptions } from "./python-flags.js";

/** A commander parser for a positive number of seconds; the error names the flag and the value. */
function secondsFlag(flag: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag}: expected a positive number of seconds, got '${v}'`);
    return n;
  };
}

/** `basecamp backtest <strategy>`: how a strategy would have scored on the validation expeds, beside v1_designated and others. */
export function registerBacktestCommand(program: Command): void {
  const command = program
    .command("backtest")
    .description("walk a strategy over a scenario's validation expeds and score it beside v1_designated and --against strategies")
    .argument("<strategy>", "a Python file (.py), a model file (.pkl), a TypeScript/JavaScript module, a predictions file (.csv/.parquet with id, prediction), or a built-in strategy's name")
    .option("--scenario <scenario>", "the scenario (a JSON file or a built-in's name) whose dataset and scoring to use", DEFAULT_SCENARIO)
    .option("--against <strategies>", "comma-separated strategies to show side by side (built-in names or files)", "")
    .option("--params <json>", "the strategy's parameters as a JSON object (a Python file's PARAMS overrides)")
    .option("--top-bottom <n>", "rows at each end of the top/bottom CORR: a whole number, or a fraction (at most 0.5) of each exped's rows", String(DEFAULT_TOP_BOTTOM))
    .option("--window <expeds>", "expeds in the HTML page's rolling mean and rolling Sharpe", String(DEFAULT_ROLLING_WINDOW))
    .option("--json", "print the report as JSON")
    .option("--html <file>", "also write the report as one self-contained HTML page")
    .option("--save-predictions <file>", "also write the strategy's predictions with the truth (.csv or .parquet), ready for `basecamp score`")
    .option("--data <dir>", "backtest on a dataset directory in the service's file layout (train, validation, benchmark files) instead of the scenario's dataset")
    .option("--target <name>", "with --data: the scored target column (default `target`)")
    .option("--core <features>", "with --data: comma-separated core features for NCORR (default none)")
    .option("--prefix <prefix>", "with --data: the benchmark files' prefix (default the directory's one)")
    .option("--keep-going", "walk on when a Python strategy fails (its failure is shown and reported) instead of stopping at the first failure")
    .option("--fit-timeout <seconds>", "CPU seconds a Python strategy's fit(train) may use, or idle for (default 600)", secondsFlag("--fit-timeout"))
    .option("--predict-timeout <seconds>", "CPU seconds one predict may use, or idle for (default 60)", secondsFlag("--predict-timeout"))
    .option("--progress", "print progress lines to stderr when it is not a terminal (on a terminal a progress line always shows)");
  pythonOptions(command, true).action(async (strategy: string, flags: BacktestFlags) => {
    if ([strategy, ...flags.against.split(",")].some((s) => runsInPythonWorker(s.trim()))) probePython(flags);
    return (await import("./backtest.js")).backtestCommand(strategy, flags);
  });
}

/**
 * Starts probing the interpreter and the sandbox (each probed once per process) while the
 * backtest's own modules load, rather than after: its Python workers, which wait on both, then
 * start that much sooner. A failure is met where the backtest awaits the same probe.
 */
function probePython(flags: BacktestFlags): void {
  applyPythonFlags(flags);
  localSandbox().catch(() => {});
}
