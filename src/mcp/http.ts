import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Service } from "../service/service.js";
import { DownloadLinks } from "./downloads.js";
import type { Log } from "./result.js";
import { createMcpServer } from "./server.js";

/**
 * The caller's key on `/mcp`: `X-API-Key`, else `Authorization: Bearer <key>` (spec,
 * Authentication 2: Bearer is accepted here and nowhere else). Absent or wrong, the key still
 * reaches the service, whose tools answer with its 401 body; `whoami` and `explain_scoring` answer anyway.
 */
export function mcpKey(request: Request): string | undefined {
  const header = request.headers.get("x-api-key");
  if (header !== null) return header;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return bearer?.[1];
}

/**
 * One MCP request over stateless streamable HTTP: a fresh server bound to the request's key and a
 * fresh transport answering with JSON (no SSE stream stays open), both closed once answered.
 * File arguments take contents only (no server paths), and downloads answer the REST URL on the
 * origin the caller reached, never a path on the server. `from` is the caller's network address
 * (the service counts failed authentications per address).
 */
export async function handleMcpPost(service: Service, request: Request, log: Log, from?: string): Promise<Response> {
  const downloads = new DownloadLinks(new URL(request.url).origin);
  const server = createMcpServer(service, mcpKey(request), { transport: "http", downloads, log, from });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
