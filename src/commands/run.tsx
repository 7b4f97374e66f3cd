import { constants } from "node:os";
import { render } from "ink";
import { hasPythonWorkers } from "../../sim/agents/lineup.js";
import { runScenario, type RunResult } from "../../sim/engine.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { pythonUses, requireScenarioPython } from "../../sim/requirements.js";
import { loadScenario, type Scenario } from "../../sim/scenario.js";
import { localIsolation } from "../participant/isolation.js";
import { LiveSeason } from "../tui/live-season.js";
import { replayControl } from "../tui/replay-control.js";
import { SeasonFeed } from "../tui/season-feed.js";
import { formatComputeBudgets } from "../tui/compute-budgets-text.js";
import { formatStakeBalances } from "../tui/stakes-text.js";
import { formatStandings } from "../tui/standings-text.js";
import { announcePython, announceUntrainedKinds, applyPythonFlags, type PythonFlags } from "./python-flags.js";
import { logsLine, makeLogDir } from "./strategy-logs.js";

export interface RunFlags extends PythonFlags {
  db?: string;
  resume?: boolean;
  stopAfter?: number;
  plain?: boolean;
  verbose?: boolean;
  pace: number;
  /** Where each Python strategy's log goes (made by the command). */
  logDir?: string;
}

/** `basecamp run <scenario>` (defined in run-command.ts): replays a scenario and shows its standings as rounds settle. */
export async function runCommand(file: string, flags: RunFlags): Promise<void> {
  if (flags.resume && !flags.db) throw new Error("--resume needs --db <file>");
  const scenario = loadScenario(scenarioFile(file));
  applyPythonFlags(flags);
  await requireScenarioPython(scenario);
  await announcePython(pythonUses(scenario), "local");
  await announceUntrainedKinds(scenario, await localIsolation());
  const logDir = hasPythonWorkers(scenario) ? makeLogDir("run") : undefined;
  if (logDir) process.stderr.write(`${logsLine(logDir)}\n`);
  const interactive = process.stdout.isTTY && !flags.plain;
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => stop.abort(signal);
  process.on("SIGINT", onSignal).on("SIGTERM", onSignal);
  const stopped = () => stop.signal.aborted;
  const result = await (interactive ? runInk(scenario, { ...flags, logDir }, stopped) : runPlain(scenario, { ...flags, logDir }, stopped)).finally(() => process.off("SIGINT", onSignal).off("SIGTERM", onSignal));
  if (!result.finished) {
    process.stdout.write(
      `stopped after step ${result.stepsDone} of ${result.steps}; continue with --db ${flags.db ?? "<file>"} --resume\n`,
    );
  }
  // The shell's convention for a command stopped by a signal: 128 + its number.
  if (stop.signal.aborted) process.exitCode = 128 + constants.signals[stop.signal.reason as NodeJS.Signals];
}

/**
 * Plain text: each settled round's board, then the final standings, the stake balances and (an
 * event with compute) the compute budgets, and the digest; `--verbose` adds every action and the
 * standings after each round.
 */
async function runPlain(scenario: Scenario, flags: RunFlags, stopped: () => boolean): Promise<RunResult> {
  const out = (s: string) => process.stdout.write(s);
  out(`${scenario.name} (seed ${scenario.seed})\n`);
  const result = await runScenario(scenario, {
    ...flags,
    shouldStop: stopped,
    onEvent: (e) => {
      if (e.kind === "log" && flags.verbose) out(`${e.line}\n`);
      if (e.kind !== "settled") return;
      if (e.round) out(`\n${formatStandings(e.round, { title: `${e.exped} board` })}`);
      if (flags.verbose || !e.round) out(`\n${formatStandings(e.board(), { title: `standings after ${e.exped} settled` })}\n`);
    },
  });
  if (result.practice) out(`\n${formatStandings(result.practice, { title: "practice board (display only)" })}`);
  out(`\n${formatStandings(result.board, { title: `final standings (${result.board.rounds_settled} rounds settled)` })}`);
  if (result.stakes) out(`\n${formatStakeBalances(result.stakes)}`);
  if (result.compute) out(`\n${formatComputeBudgets(result.compute)}`);
  if (scenario.kind === "event") {
    out(`\nmodels: ${result.legend.map((m) => `${m.model} = ${m.agent}${m.label && m.label !== m.agent ? ` (${m.label})` : ""}`).join(", ")}\n`);
  }
  out(`event log: ${result.events} events, digest ${result.digest}\n`);
  return result;
}

async function runInk(scenario: Scenario, flags: RunFlags, stopped: () => boolean): Promise<RunResult> {
  const feed = new SeasonFeed();
  const control = replayControl(flags.pace);
  const rounds = (scenario.calendar ?? scenario.event)?.n_rounds ?? 0;
  const app = render(<LiveSeason scenario={scenario.name} seed={scenario.seed} rounds={rounds} feed={feed} control={control} />, { exitOnCtrlC: false });
  const result = await runScenario(scenario, {
    ...flags,
    onEvent: (e) => {
      if (e.kind === "settled") feed.push({ ...e, board: e.board() });
      else if (e.kind !== "missed") feed.push(e);
    },
    afterStep: control.afterStep,
    shouldStop: () => control.shouldStop() || stopped(),
  });
  feed.push({ kind: "done", board: result.board, digest: result.digest, stakes: result.stakes && formatStakeBalances(result.stakes) });
  await new Promise((r) => setTimeout(r, 50));
  app.unmount();
  await app.waitUntilExit();
  // Below the last frame, whole: the view keeps its height for the standings.
  if (result.compute) process.stdout.write(`\n${formatComputeBudgets(result.compute)}`);
  return result;
}
