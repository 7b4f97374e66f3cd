import { Command } from "commander";
import { registerBacktestCommand } from "./commands/backtest-command.js";
import { registerMcpCommand } from "./commands/mcp-command.js";
import { registerRunCommand } from "./commands/run-command.js";
import { registerScenariosCommand } from "./commands/scenarios.js";
import { registerScoreCommand } from "./commands/score-command.js";
import { registerServeCommand } from "./commands/serve-command.js";
import { registerSweepCommand } from "./commands/sweep-command.js";
import { registerStrategiesCommand } from "./commands/strategies.js";
import { oneLineUsageErrors } from "./commands/usage-error.js";

/** The `basecamp` command. Each command loads its code when it runs, so `basecamp --help` stays quick. */
const program = new Command()
  .name("basecamp")
  .description("Local simulator and offline backtesting workbench for the prediction tournament service");

registerBacktestCommand(program);
registerMcpCommand(program);
registerRunCommand(program);
registerScenariosCommand(program);
registerScoreCommand(program);
registerServeCommand(program);
registerStrategiesCommand(program);
registerSweepCommand(program);
oneLineUsageErrors(program);

program.parseAsync(process.argv).catch((e: unknown) => {
  // One line, whatever the error: a message that spans lines is joined.
  process.stderr.write(`basecamp: ${(e instanceof Error ? e.message : String(e)).trim().replace(/\s*\n\s*/g, " ")}\n`);
  process.exit(1);
});
