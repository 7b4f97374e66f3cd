import type { Command } from "commander";
import { DEFAULT_SCENARIO } from "../../sim/builtin-scenarios.js";
import { DEFAULT_ROLLING_WINDOW, DEFAULT_TOP_BOTTOM } from "../report/backtest-report.js";
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { checkBacktestFlags, type BacktestFlags, type EarlyWorker } from "./backtest-flags.js";
import { runsInPythonWorker, strategyFileKind, strategyLogFile } from "../../sim/agents/strategy-file.js";
import { contenders } from "../../sim/backtest/contenders.js";
import { localSandbox } from "../participant/isolation.js";
import { startLocalWorker } from "../participant/local-worker.js";
import { applyPythonFlags, pythonOptions } from "./python-flags.js";
import { makeLogDir } from "./strategy-logs.js";

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
    const params = checkBacktestFlags(strategy, flags);
    let early: EarlyWorker | undefined;
    if ([strategy, ...flags.against.split(",")].some((s) => runsInPythonWorker(s.trim()))) {
      applyPythonFlags(flags);
      early = strategyFileKind(strategy) === "pickle" ? startModelFile(resolve(strategy)) : undefined;
      // The interpreter and the sandbox are probed (once per process) while the backtest's own
      // modules load, rather than after. A failure is met where the backtest awaits the same probe.
      localSandbox().catch(() => {});
    }
    return (await import("./backtest.js")).backtestCommand(strategy, flags, params, early);
  });
}

/**
 * Starts the worker of the model file under test before the backtest's own modules load, as its
 * lineup would start it (startLocalWorker: sandboxed where the machine has a sandbox, its start
 * answering the sandbox probe): the interpreter's imports and the file's unpickling then overlap
 * the loading and the dataset's read instead of following them. Its log is the backtest's. A file
 * that cannot be read is left to the lineup, which reports it as it does any strategy's.
 */
function startModelFile(path: string): EarlyWorker | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const logDir = makeLogDir("backtest");
  // The strategy under test is the first contender, so its agent name is never made unique against another's.
  const agent = contenders(path, {}, [])[0].name;
  const worker = startLocalWorker({ source: { kind: "pickle", bytes }, share: "whole", label: basename(path), log: strategyLogFile(logDir, agent) });
  return { logDir, started: { strategy: path, worker } };
}
