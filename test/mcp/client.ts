import { afterAll } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const open: Client[] = [];
afterAll(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

/** An MCP client over streamable HTTP to `<url>/mcp`, sending `headers` on every request; closed after the file's tests. */
export async function mcpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "basecamp-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  open.push(client);
  return client;
}

export interface ToolAnswer {
  isError: boolean;
  /** The text content, parsed as JSON. */
  json: any;
  text: string;
}

/** Calls a tool and parses its one text content. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  if (result.content.length !== 1 || first.type !== "text") throw new Error(`${name}: expected one text content, got ${JSON.stringify(result.content)}`);
  return { isError: result.isError === true, json: JSON.parse(first.text), text: first.text };
}

/** The bytes at a download tool's `download_url` (its answer over HTTP), fetched with the caller's key as a remote client would. */
export async function fetchDownload(url: string, key: string): Promise<Uint8Array> {
  const r = await fetch(url, { headers: { "X-API-Key": key } });
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}
