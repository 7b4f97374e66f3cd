import type { Service } from "../service/service.js";
import type { Downloads } from "./downloads.js";
import type { Transport } from "./file-argument.js";
import type { Log } from "./result.js";

/**
 * What every tool runs with: the service, the caller's key (one per MCP request or stdio server)
 * and network address (over HTTP), the transport (which decides whether a file argument may be a path), how downloads are handed
 * over (a local file over stdio, a URL over HTTP), and the error log.
 */
export interface ToolContext {
  service: Service;
  key: string | undefined;
  from?: string;
  transport: Transport;
  downloads: Downloads;
  log: Log;
}
