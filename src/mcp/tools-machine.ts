import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { addTool, type ToolContext } from "./tool.js";

const machineId = { machine_id: z.string().min(1).describe("The machine_id start_machine answered with") };

/** The hosted agent's machine: start it, run commands on it, read its files, stop it, read its records (one session, or all). */
export function registerMachineTools(server: McpServer, { service, key, log }: ToolContext): void {
  addTool(server, log, {
    name: "start_machine",
    description:
      "Starts your hosted machine on the event's compute grant (one at a time): a sandboxed workspace (no network) holding the " +
      "event's train split as CSV, charged at the rate card for the simulated time it runs. It stops after the event's idle time " +
      "without a command, at the daily maximum, when the grant it held runs out, or at the event's end; then its files are gone " +
      "and its records stay (list_machine_sessions).",
    input: {},
    run: () => service.startMachine(key),
  });
  addTool(server, log, {
    name: "run_on_machine",
    description: "Runs a shell command (sh -c) in your running machine's workspace; answers its exit code and output (the first 64 KiB). Restarts the idle count.",
    input: { ...machineId, command: z.unknown().describe("The shell command, 1 to 4096 bytes") },
    loose: true,
    run: ({ machine_id, ...body }) => service.runOnMachine(key, machine_id, body),
  });
  addTool(server, log, {
    name: "read_machine_file",
    description: "Reads a file (a path relative to the workspace; at most 1 MiB) from your running machine: UTF-8 text, or base64 when it is not text.",
    input: { ...machineId, path: z.string().min(1).describe("Relative to the workspace, e.g. out/summary.txt") },
    readOnly: true,
    run: async ({ machine_id, path }) => {
      const file = await service.readMachineFile(key, machine_id, path);
      const text = new TextDecoder("utf-8", { fatal: true });
      try {
        return { path: file.path, size: file.size, encoding: "utf8", content: text.decode(file.bytes) };
      } catch {
        return { path: file.path, size: file.size, encoding: "base64", content: Buffer.from(file.bytes).toString("base64") };
      }
    },
  });
  addTool(server, log, {
    name: "stop_machine",
    description: "Stops your running machine now: charged its runtime, its files deleted, its records kept.",
    input: machineId,
    run: ({ machine_id }) => service.stopMachine(key, machine_id),
  });
  addTool(server, log, {
    name: "get_machine",
    description: "One of your machine sessions, running or stopped: its limits, stop reason, runtime, charge, and every command run with its exit code and output.",
    input: machineId,
    readOnly: true,
    run: ({ machine_id }) => service.getMachine(key, machine_id),
  });
  addTool(server, log, {
    name: "list_machine_sessions",
    description: "Your machine sessions, oldest first: limits, stop reason, runtime, charge, and every command run with its exit code and output.",
    input: {},
    readOnly: true,
    run: () => service.listMachines(key),
  });
}
