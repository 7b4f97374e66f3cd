import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Service } from "../service/service.js";
import type { Downloads } from "./downloads.js";
import type { Transport } from "./file-argument.js";
import { stderrLog, type Log } from "./result.js";
import { registerComputeTools } from "./tools-compute.js";
import { registerMachineTools } from "./tools-machine.js";
import { registerDataTools } from "./tools-data.js";
import { registerEventTools } from "./tools-event.js";
import { registerEventStakingTools } from "./tools-event-staking.js";
import { registerModelFileTools } from "./tools-model-files.js";
import { registerModelTools } from "./tools-models.js";
import { registerRoundTools } from "./tools-rounds.js";
import { registerStakingTools } from "./tools-staking.js";
import { registerStatusTools } from "./tools-status.js";

/** Basecamp's version as an MCP server reports it. */
const SERVER_INFO = { name: "basecamp", version: "0.1.0" };

const INSTRUCTIONS =
  "Basecamp simulates the prediction tournament and event service. Call get_started first; read round ids from " +
  "get_current_round or get_instruments, never guess them. A refused call is a tool error whose text is " +
  '{"detail": {"code", "message", ...}}, as the REST API answers it.';

export interface McpServerOptions {
  transport: Transport;
  /** How download tools hand their files over: a DownloadDir (stdio; its owner removes it when the session ends) or DownloadLinks (HTTP). */
  downloads: Downloads;
  log?: Log;
}

/**
 * The MCP face for one caller: every tool a thin mapping onto one Service operation, called with
 * `key`.
 */
export function createMcpServer(service: Service, key: string | undefined, options: McpServerOptions): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const context = { service, key, transport: options.transport, downloads: options.downloads, log: options.log ?? stderrLog };
  registerStatusTools(server, context);
  registerModelTools(server, context);
  registerModelFileTools(server, context);
  registerRoundTools(server, context);
  registerDataTools(server, context);
  registerEventTools(server, context);
  registerEventStakingTools(server, context);
  registerStakingTools(server, context);
  registerComputeTools(server, context);
  registerMachineTools(server, context);
  return server;
}
