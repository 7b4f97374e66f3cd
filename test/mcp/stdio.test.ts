import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { callTool } from "./client.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const KEY = "key-copycat-0000";
const ARGS = ["bin/basecamp.js", "mcp", "scenarios/default-tournament.json", "--key", KEY];

describe("basecamp mcp (stdio)", () => {
  it("serves the tools to the SDK's stdio client, with nothing but protocol on stdout", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ARGS, cwd: ROOT, stderr: "pipe" });
    const client = new Client({ name: "basecamp-test", version: "0" });
    // A line on stdout that is not a JSON-RPC message surfaces here as a parse error.
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("submit_futures_predictions");
      expect((await callTool(client, "whoami")).json).toMatchObject({ authenticated: true, scope: "tournament", agent: "copycat" });
      const started = await callTool(client, "get_started");
      expect(started.json).toMatchObject({ scope: "tournament", mode: "tournament", lane: "futures_submit_v2" });
      const refused = await callTool(client, "archive_model", { model: "ghost" });
      expect(refused).toMatchObject({ isError: true, json: { detail: { code: "model_name_unknown" } } });
    } finally {
      await client.close();
    }
    expect(errors).toEqual([]);
  });

  it("writes only JSON-RPC lines to stdout, its notes to stderr, and exits 0 when stdin closes", async () => {
    const child = spawn(process.execPath, ARGS, { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/call", params: { name: "get_models", arguments: {} } });
    // Close stdin once both answers are in (or go on at once if the server died).
    const answered = new Promise<void>((resolve) => child.stdout.on("data", () => stdout.includes('"id":2') && resolve()));
    await Promise.race([answered, exited]);
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(lines.every((l) => l.jsonrpc === "2.0")).toBe(true);
    expect(JSON.parse(lines[1].result.content[0].text)).toEqual({ models: [] });
    expect(stderr).toContain("stdin closed");
  });
});
