import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { toolArgs } from "../contract/args.js";
import type { McpTool, Operation, OperationName } from "../contract/index.js";
import { fileAnswers, fileArguments } from "./file-tools.js";
import { answer } from "./result.js";
import type { ToolContext } from "./tool-context.js";

/**
 * Registers one tool of an operation: its arguments checked by the contract's `input`, turned into
 * the operation's (this face reads the files a tool carries), the operation performed, and its
 * answer (or refusal) rendered by `answer` (a download handed over by this face).
 */
export function addTool(server: McpServer, context: ToolContext, name: OperationName, op: Operation, tool: McpTool): void {
  const run = async (input: Record<string, unknown>) => {
    const own = fileArguments[tool.name];
    const args = own ? await own(input, context) : toolArgs(op, tool, input);
    const result = await context.service.perform(name, context.key, args, context.from);
    const delivered = fileAnswers[tool.name];
    return delivered ? delivered(result, args, context) : tool.answer ? tool.answer(result) : result;
  };
  server.registerTool(
    tool.name,
    { description: tool.description, inputSchema: tool.loose ? z.looseObject(tool.input) : tool.input, annotations: { readOnlyHint: tool.readOnly ?? false } },
    // The SDK types the arguments from the shape; the cast bridges its zod-compat typing to zod 4's.
    ((input: Record<string, unknown>) => answer(() => run(input), context.log)) as never,
  );
}
