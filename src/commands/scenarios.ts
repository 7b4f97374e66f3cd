import type { Command } from "commander";
import { builtinScenarios } from "../../sim/builtin-scenarios.js";

/** `basecamp scenarios`: the scenarios shipped with Basecamp, which any command takes by name. */
export function registerScenariosCommand(program: Command): void {
  program
    .command("scenarios")
    .description("list the built-in scenarios (run, serve, mcp and backtest --scenario take them by name)")
    .action(() => {
      for (const s of builtinScenarios()) process.stdout.write(`${s.name}\n  ${s.description}\n`);
    });
}
