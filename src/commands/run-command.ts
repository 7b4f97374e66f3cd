import type { Command } from "commander";
import { numberFlag } from "./number-flag.js";
import { pythonOptions } from "./python-flags.js";
import type { RunFlags } from "./run.js";

/** `basecamp run <scenario>`: replays a scenario and shows its standings as rounds settle. */
export function registerRunCommand(program: Command): void {
  const command = program
    .command("run")
    .description("replay a scenario on the simulated clock and show its standings")
    .argument("<scenario>", "a scenario JSON file or a built-in scenario's name (see `basecamp scenarios`)")
    .option("--db <file>", "persist the run to this SQLite file (resumable)")
    .option("--resume", "continue the run stored in --db where it stopped")
    .option("--stop-after <steps>", "stop after this many steps (to resume later)", (v) => positiveInt("--stop-after", v))
    .option("--plain", "plain-text output even on a terminal")
    .option("--verbose", "plain text: also every agent's and organiser's action, and the standings after each settled round")
    .option("--pace <ms>", "terminal view: wall-clock milliseconds per step, so the season can be watched (0 = flat out)", numberFlag("--pace", 0), 15);
  pythonOptions(command, true).action(async (file: string, flags: RunFlags) => (await import("./run.js")).runCommand(file, flags));
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got '${v}'`);
  return n;
}

