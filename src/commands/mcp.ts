import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { loadScenario } from "../../sim/scenario.js";
import { DownloadDir } from "../mcp/downloads.js";
import { createMcpServer } from "../mcp/server.js";
import { scenarioFile } from "../../sim/builtin-scenarios.js";
import { servedPythonLanes } from "../../sim/requirements.js";
import { announcePython, applyPythonFlags, type PythonFlags } from "./python-flags.js";
import { startServer } from "./serve.js";

export interface McpFlags extends Pick<PythonFlags, "python"> {
  key: string;
  port: number;
  clock: "manual" | "realtime";
  speed: number;
  db?: string;
}

/**
 * `basecamp mcp [scenario] --key K` (defined in mcp-command.ts): the MCP tools for one key over stdio, on a service of its own.
 * That service is a full `basecamp serve` on loopback (a free port unless `--port`), so the
 * organiser can move its clock through `/sim/v1` and other agents can reach it over REST or
 * `/mcp`; its URL goes to stderr. Nothing but the protocol is written to stdout. The server stops
 * when stdin closes (the MCP client went away) or on SIGINT/SIGTERM.
 */
export async function mcpCommand(file: string, flags: McpFlags): Promise<void> {
  if (flags.clock !== "manual" && flags.clock !== "realtime") throw new Error(`--clock: expected manual or realtime, got '${flags.clock}'`);
  const scenario = loadScenario(scenarioFile(file));
  if (!scenario.agents.some((a) => a.key === flags.key)) {
    throw new Error(`--key: no agent of ${file} has this key (its agents: ${scenario.agents.map((a) => a.name).join(", ")})`);
  }
  applyPythonFlags(flags);
  // On stderr: stdout is the MCP channel.
  await announcePython(servedPythonLanes(scenario), { served: { trusted: false } });
  const running = await startServer({
    scenario,
    port: flags.port,
    clock: flags.clock,
    speed: flags.speed,
    db: flags.db,
  });
  const downloads = new DownloadDir();
  const server = createMcpServer(running.service, flags.key, { transport: "stdio", downloads });
  await server.connect(new StdioServerTransport());
  process.stderr.write(
    `basecamp: MCP over stdio for ${file}; the same service at ${running.url} (/api/v1, /mcp, organiser /sim/v1)\n`,
  );
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`basecamp: ${why}: closing the MCP server and the store\n`);
    Promise.all([server.close(), running.close()]).then(
      () => downloads.close(),
    ).then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`basecamp: shutdown failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.stdin.on("end", () => stop("stdin closed"));
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}
