import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { asServiceError } from "../domain/errors.js";

/** Where the MCP face reports internal errors: stderr (stdout is the stdio server's protocol channel). */
export type Log = (line: string) => void;

export const stderrLog: Log = (line) => process.stderr.write(`${line}\n`);

/** A service answer as a tool result: its JSON as text, and as structured content when it is an object. */
export function toolResult(value: unknown): CallToolResult {
  const structured = typeof value === "object" && value !== null && !Array.isArray(value);
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  };
}

/**
 * A refusal as a tool error whose text is the body the HTTP face renders,
 * `{"detail": {"code", "message", ...}}` (ServiceError.detail is that body's one builder).
 * Anything else is an `internal_error`, reported to `log` as the HTTP face does.
 */
export function toolError(e: unknown, log: Log): CallToolResult {
  const error = asServiceError(e, log);
  return { content: [{ type: "text", text: JSON.stringify({ detail: error.detail }) }], isError: true };
}

/** Runs one service call and answers with its result or its refusal. */
export async function answer(call: () => unknown, log: Log): Promise<CallToolResult> {
  try {
    return toolResult(await call());
  } catch (e) {
    return toolError(e, log);
  }
}
