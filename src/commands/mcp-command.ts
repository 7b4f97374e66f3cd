import type { Command } from "commander";
import { DEFAULT_SCENARIO } from "../../sim/builtin-scenarios.js";
import type { McpFlags } from "./mcp.js";
import { numberFlag, portFlag } from "./number-flag.js";
import { pythonOptions } from "./python-flags.js";

/** `basecamp mcp [scenario] --key K`: the MCP tools for one key over stdio (see mcp.ts). */
export function registerMcpCommand(program: Command): void {
  const command = program
    .command("mcp")
    .description("serve the MCP tools over stdio for one API key, on a scenario's own service")
    .argument("[scenario]", "a scenario JSON file or a built-in scenario's name", DEFAULT_SCENARIO)
    .requiredOption("--key <key>", "the API key the tools act with")
    .option("--port <port>", "port of the service's HTTP face on 127.0.0.1 (0 = any free port)", portFlag("--port"), 0)
    .option("--clock <mode>", "manual (moved by /sim/v1/clock/advance) or realtime", "manual")
    .option("--speed <n>", "realtime: simulated seconds per wall-clock second", numberFlag("--speed", 0), 1)
    .option("--db <file>", "keep the store in this SQLite file (resumed when it holds this scenario)");
  pythonOptions(command, false).action(async (file: string, flags: McpFlags) => (await import("./mcp.js")).mcpCommand(file, flags));
}
