import type { Command } from "commander";
import { render } from "ink";
import { useEffect, useState } from "react";
import { runScenario, type EngineEvent, type RunResult } from "../../sim/engine.js";
import { requireScenarioPython } from "../../sim/requirements.js";
import { loadScenario, type Scenario } from "../../sim/scenario.js";
import type { Board } from "../scoring/standings.js";
import { SeasonView, type SeasonProgress } from "../tui/season-view.js";
import { formatStakeBalances } from "../tui/stakes-text.js";
import { formatStandings } from "../tui/standings-text.js";
import { numberFlag } from "./number-flag.js";

interface RunFlags {
  db?: string;
  resume?: boolean;
  stopAfter?: number;
  plain?: boolean;
  verbose?: boolean;
  pace: number;
}

/** `basecamp run <scenario>`: replays a scenario and shows its standings as rounds settle. */
export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("replay a scenario on the simulated clock and show its standings")
    .argument("<scenario>", "scenario JSON file")
    .option("--db <file>", "persist the run to this SQLite file (resumable)")
    .option("--resume", "continue the run stored in --db where it stopped")
    .option("--stop-after <steps>", "stop after this many steps (to resume later)", (v) => positiveInt("--stop-after", v))
    .option("--plain", "plain-text output even on a terminal")
    .option("--verbose", "plain text: also every agent's and organiser's action, and the standings after each settled round")
    .option("--pace <ms>", "terminal view: wall-clock milliseconds per step, so the season can be watched (0 = flat out)", numberFlag("--pace", 0), 15)
    .action(async (file: string, flags: RunFlags) => {
      if (flags.resume && !flags.db) throw new Error("--resume needs --db <file>");
      const scenario = loadScenario(file);
      await requireScenarioPython(scenario);
      const interactive = process.stdout.isTTY && !flags.plain;
      const result = interactive ? await runInk(scenario, flags) : await runPlain(scenario, flags);
      if (!result.finished) {
        process.stdout.write(
          `stopped after step ${result.stepsDone} of ${result.steps}; continue with --db ${flags.db ?? "<file>"} --resume\n`,
        );
      }
    });
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got '${v}'`);
  return n;
}

/** Plain text: each settled round's board, then the final standings and the digest; `--verbose` adds every action and the standings after each round. */
async function runPlain(scenario: Scenario, flags: RunFlags): Promise<RunResult> {
  const out = (s: string) => process.stdout.write(s);
  out(`${scenario.name} (seed ${scenario.seed})\n`);
  const result = await runScenario(scenario, {
    ...flags,
    onEvent: (e) => {
      if (e.kind === "log" && flags.verbose) out(`${e.line}\n`);
      if (e.kind !== "settled") return;
      if (e.round) out(`\n${formatStandings(e.round, { title: `${e.exped} board` })}`);
      if (flags.verbose || !e.round) out(`\n${formatStandings(e.board, { title: `standings after ${e.exped} settled` })}\n`);
    },
  });
  if (result.practice) out(`\n${formatStandings(result.practice, { title: "practice board (display only)" })}`);
  out(`\n${formatStandings(result.board, { title: `final standings (${result.board.rounds_settled} rounds settled)` })}`);
  if (result.stakes) out(`\n${formatStakeBalances(result.stakes)}`);
  if (scenario.kind === "event") {
    out(`\nmodels: ${result.legend.map((m) => `${m.model} = ${m.agent}${m.label && m.label !== m.agent ? ` (${m.label})` : ""}`).join(", ")}\n`);
  }
  out(`event log: ${result.events} events, digest ${result.digest}\n`);
  return result;
}

async function runInk(scenario: Scenario, flags: RunFlags): Promise<RunResult> {
  let push: (e: EngineEvent | { kind: "done"; result: RunResult }) => void = () => {};
  const pending: (EngineEvent | { kind: "done"; result: RunResult })[] = [];
  const feed = (e: EngineEvent | { kind: "done"; result: RunResult }) => {
    pending.push(e);
    push(e);
  };
  function App() {
    const [progress, setProgress] = useState<SeasonProgress>({ settled: 0, total: (scenario.calendar ?? scenario.event)?.n_rounds ?? 0, phase: "starting", now: "" });
    const [board, setBoard] = useState<Board | null>(null);
    const [log, setLog] = useState<string[]>([]);
    const [digest, setDigest] = useState<string | null>(null);
    const [stakes, setStakes] = useState<string | null>(null);
    useEffect(() => {
      const apply = (e: EngineEvent | { kind: "done"; result: RunResult }) => {
        if (e.kind === "progress") setProgress({ settled: e.settled, total: e.rounds, phase: e.phase, now: e.now });
        else if (e.kind === "settled") setBoard(e.board);
        else if (e.kind === "log") setLog((l) => [...l.slice(-50), e.line]);
        else if (e.kind === "done") {
          setBoard(e.result.board);
          setDigest(e.result.digest);
          if (e.result.stakes) setStakes(formatStakeBalances(e.result.stakes));
        }
      };
      pending.forEach(apply);
      push = apply;
    }, []);
    return <SeasonView scenario={scenario.name} seed={scenario.seed} progress={progress} board={board} log={log} digest={digest} stakes={stakes} />;
  }
  const app = render(<App />);
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, flags.pace));
  const result = await runScenario(scenario, { ...flags, onEvent: feed, afterStep: flags.pace > 0 ? pause : undefined });
  feed({ kind: "done", result });
  await new Promise((r) => setTimeout(r, 50));
  app.unmount();
  await app.waitUntilExit();
  return result;
}
