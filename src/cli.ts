import { Command } from "commander";
import { registerBacktestCommand } from "./commands/backtest.js";
import { registerMcpCommand } from "./commands/mcp.js";
import { registerRunCommand } from "./commands/run.js";
import { registerScoreCommand } from "./commands/score.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerStrategiesCommand } from "./commands/strategies.js";

/** The `basecamp` command. */
const program = new Command()
  .name("basecamp")
  .description("Local simulator and offline backtesting workbench for the prediction tournament service")
  .showHelpAfterError();

registerBacktestCommand(program);
registerMcpCommand(program);
registerRunCommand(program);
registerScoreCommand(program);
registerServeCommand(program);
registerStrategiesCommand(program);

program.parseAsync(process.argv).catch((e: unknown) => {
  process.stderr.write(`basecamp: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
