import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { operationList } from "../contract/index.js";
import type { Service } from "../service/service.js";
import type { Downloads } from "./downloads.js";
import type { Transport } from "./file-argument.js";
import { stderrLog, type Log } from "./result.js";
import { addTool } from "./tool.js";

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
  /** The caller's network address, over HTTP (the service counts failed authentications per address). */
  from?: string;
}

/**
 * The MCP face for one caller: every tool of the contract, each a thin mapping onto its operation,
 * called with `key`.
 */
export function createMcpServer(service: Service, key: string | undefined, options: McpServerOptions): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  const context = { service, key, from: options.from, transport: options.transport, downloads: options.downloads, log: options.log ?? stderrLog };
  for (const [name, op] of operationList) for (const tool of op.mcp ?? []) addTool(server, context, name, op, tool);
  return server;
}
