import { constants } from "node:os";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { faultLine, type StrategyFault, type StrategyWatch } from "../../sim/agents/strategy-watch.js";
import { backtest, type BacktestRun } from "../../sim/backtest/backtest.js";
import { scoredFrame } from "../../sim/backtest/scored-frame.js";
import { runsInPythonWorker, strategyFileKind } from "../../sim/agents/strategy-file.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { deploymentOf } from "../../sim/deployment.js";
import { loadScenario, type Scenario } from "../../sim/scenario.js";
import { fitsOnTrain } from "../../sim/backtest/contenders.js";
import { workerTrainFile } from "../../sim/backtest/train-file.js";
import { writeFrameCsv } from "../data/csv.js";
import { writeFrameParquet } from "../data/parquet.js";
import { renderBacktestHtml } from "../report/backtest-html.js";
import { formatBacktestText } from "../report/backtest-text.js";
import { loadWorld } from "../service/kernel/deployment.js";
import { dataDefaults, dataScenario } from "./backtest-data.js";
import { formatFault } from "./backtest-failure.js";
import { logsLine, makeLogDir } from "./strategy-logs.js";
import { BacktestProgress } from "./backtest-progress.js";
import { pythonUses } from "../../sim/requirements.js";
import { announcePython, applyPythonFlags } from "./python-flags.js";
import type { BacktestFlags, EarlyWorker } from "./backtest-flags.js";

/**
 * `basecamp backtest <strategy>` (defined in backtest-command.ts): how a strategy would have scored
 * on the validation expeds, with `params` (its checked `--params`) and the worker it started early,
 * if any. The debugging loop: output paths are checked before any work (checkBacktestFlags); each
 * Python strategy's prints go to a log file; the first failure of a Python strategy's code stops
 * the backtest with its traceback and its last printed lines (exit 1), unless `--keep-going`;
 * SIGINT/SIGTERM stop the walk and print the report of the expeds settled so far.
 */
export async function backtestCommand(strategy: string, flags: BacktestFlags, params: Record<string, unknown>, early?: EarlyWorker): Promise<void> {
  try {
    await run(strategy, flags, params, early);
  } finally {
    // Idempotent: a worker its lineup took is already closed; one it never reached is closed here.
    await early?.started.worker.then((s) => (s.ok ? s.worker.close() : undefined));
  }
}

async function run(strategy: string, flags: BacktestFlags, params: Record<string, unknown>, early: EarlyWorker | undefined): Promise<void> {
  const spec = (s: string) => (strategyFileKind(s) === null ? s : resolve(s));
  const against = flags.against.split(",").map((s) => s.trim()).filter(Boolean).map(spec);
  applyPythonFlags(flags);
  const scenario = dataScenario(loadScenario(scenarioFile(flags.scenario)), flags);
  const contenders = [spec(strategy), ...against];
  const files = contenders.filter(runsInPythonWorker);
  // The dataset is read while the interpreter is probed for its one line, and while the strategies load (backtest()).
  // The train split is left unread when nothing fits on it, or when the Python strategies that do read its file themselves.
  const trainFile = await workerTrainFile(scenario, contenders);
  const skipTrain = trainUnneeded(scenario, contenders) || trainFile !== null;
  const world = loadWorld(deploymentOf(scenario), { skipTrain, trainFile: trainFile?.file });
  world.catch(() => {}); // its failure is met when the backtest awaits it
  await announcePython([...files, ...pythonUses(scenario)], "local");

  const progress = process.stderr.isTTY ? new BacktestProgress("redraw") : flags.progress ? new BacktestProgress("lines") : null;
  const note = (text: string) => (progress ? progress.note(text) : process.stderr.write(`${text}\n`));
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => stop.abort(signal);
  const faults: StrategyFault[] = [];
  let run: BacktestRun;
  try {
    progress?.load(scenario.dataset.dir ?? `the dataset of ${flags.scenario}`);
    const logDir = early?.logDir ?? (files.length > 0 ? makeLogDir("backtest") : undefined);
    const shownFaults = new Set<string>();
    const watch: StrategyWatch = {
      fitting: (agent) => progress?.fitting(agent),
      fitted: (agent) => progress?.fitted(agent),
      failed: (fault) => {
        if (stop.signal.aborted) return; // a worker stopped by the stop itself
        faults.push(fault);
        if (!flags.keepGoing || fault.call === "load") return stop.abort("failure");
        const key = `${fault.agent} ${fault.call}`;
        note(shownFaults.has(key) ? faultLine(fault) : formatFault(fault).trimEnd());
        shownFaults.add(key);
      },
    };
    process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
    run = await backtest({
      strategy: spec(strategy),
      params,
      against,
      scenario,
      scenarioName: scenario.dataset.dir ?? flags.scenario,
      world,
      onWorld: (loaded) => {
        if (scenario.dataset.dir !== undefined) note(dataDefaults(scenario.dataset.dir, loaded, flags, trainFile ? "workers" : skipTrain ? "unneeded" : "read"));
      },
      timeouts: { fit_timeout_seconds: flags.fitTimeout, predict_timeout_seconds: flags.predictTimeout },
      // The user's own files on the user's own machine: their workers take every core, as their own script would.
      lineup: { logDir, watch, share: "whole", trainFile: trainFile ?? undefined, started: early?.started },
      trainRows: trainFile?.rows,
      stop: stop.signal,
      topBottom: Number(flags.topBottom),
      rollingWindow: Number(flags.window),
      onProgress: (p) => progress?.walk(p),
      onReady: () => {
        if (!logDir) return;
        note(logsLine(logDir));
        progress?.load("starting the Python strategies");
      },
    });
  } catch (e) {
    progress?.end();
    const load = faults.find((f) => f.call === "load");
    if (load) process.stderr.write(formatFault(load).split("\n").slice(1).join("\n")); // its first line is the error's own
    throw e;
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    progress?.end();
  }

  if (stop.signal.reason === "failure") {
    const first = faults[0];
    process.stderr.write(formatFault(first));
    throw new Error(`${first.agent}'s ${first.call} failed, so the backtest stopped (--keep-going walks on without it)`);
  }
  if (!run.finished) {
    const signal = stop.signal.reason as NodeJS.Signals;
    process.stderr.write(`backtest: stopped by ${signal}; the report covers the ${run.report.expeds.length} expeds settled before\n`);
    // The shell's convention for a command stopped by a signal: 128 + its number.
    process.exitCode = 128 + constants.signals[signal];
  }
  if (flags.html) await writeOut(flags.html, renderBacktestHtml(run.report));
  if (flags.savePredictions) {
    const frame = scoredFrame(run.predictions, run.world);
    await writeOut(flags.savePredictions, /\.csv$/i.test(flags.savePredictions) ? writeFrameCsv(frame) : writeFrameParquet(frame));
  }
  process.stdout.write(flags.json ? `${JSON.stringify(run.report)}\n` : formatBacktestText(run.report));
}

/** Whether a dataset directory's train split may be left unread: none of `strategies` fits on it (a model file's backtest). */
function trainUnneeded(scenario: Scenario, strategies: string[]): boolean {
  return scenario.dataset.dir !== undefined && !strategies.some(fitsOnTrain);
}

async function writeOut(path: string, data: string | Uint8Array): Promise<void> {
  await writeFile(path, data);
  process.stderr.write(`wrote ${path}\n`);
}
