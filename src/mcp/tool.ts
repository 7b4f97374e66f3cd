import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Service } from "../service/service.js";
import type { Downloads } from "./downloads.js";
import type { Transport } from "./file-argument.js";
import { answer, type Log } from "./result.js";

/**
 * What every tool runs with: the service, the caller's key (one per MCP request or stdio server),
 * the transport (which decides whether a file argument may be a path), how downloads are handed
 * over (a local file over stdio, a URL over HTTP), and the error log.
 */
export interface ToolContext {
  service: Service;
  key: string | undefined;
  transport: Transport;
  downloads: Downloads;
  log: Log;
}

interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  description: string;
  input: S;
  /** A read: the tool changes nothing (MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** Arguments beyond `input` reach `run` instead of being dropped, so the service can refuse them by name. */
  loose?: boolean;
  run(args: z.output<z.ZodObject<S>>): unknown;
}

/** Registers one tool: its arguments checked by `input`, its answer (or refusal) rendered by `answer`. */
export function addTool<S extends z.ZodRawShape>(server: McpServer, log: Log, spec: ToolSpec<S>): void {
  server.registerTool(
    spec.name,
    { description: spec.description, inputSchema: spec.loose ? z.looseObject(spec.input) : spec.input, annotations: { readOnlyHint: spec.readOnly ?? false } },
    // The SDK types the arguments from the shape; the cast bridges its zod-compat typing to zod 4's.
    ((args: z.output<z.ZodObject<S>>) => answer(() => spec.run(args), log)) as never,
  );
}
