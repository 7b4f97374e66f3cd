import { z } from "zod";
import { operation } from "./operation.js";
import { texts } from "./refusals.js";

const machineView =
  "MachineView {machine_id, status: running|stopped, tier, rate_usd_per_hr, started_at, idle_stop_at, limit_stop_at, " +
  "limit_reason: daily_max|budget|event_end, stopped_at, stop_reason: stopped|idle|daily_max|budget|event_end, runtime_seconds, " +
  "hold_cents, accrued_cents, cost_cents, workspace: {dir, train_file, files_kept}, commands: [CommandView]}";
const commandView = "CommandView {n, command, ran_at, outcome: exited|timeout|failed, exit_code, output, output_bytes, output_truncated}";
const gate = { 403: texts("hackathon_not_started", "compute_not_live", "compute_no_budget"), 503: texts("compute_paused") };
const notFound = texts("machine_not_found");
const machineId = { machine_id: z.string().min(1).describe("The machine_id start_machine answered with") };

/** The hosted agent's machine (Basecamp's paths: the spec names the machine's limits, not its API). */
export const machineOperations = {
  startMachine: operation({
    scope: "key",
    rate: "start_machine",
    rest: [
      {
        method: "POST",
        path: "/api/v1/compute/machines",
        operationId: "start_machine",
        summary:
          "Starts the caller's hosted machine (201): a sandboxed workspace holding the event's train split, charged from the compute grant at the rate card until it stops",
        status: 201,
        responses: { 201: machineView, ...gate, 409: texts("machine_already_running", "machine_daily_max", "machine_no_credit") },
      },
    ],
    mcp: [
      {
        name: "start_machine",
        description:
          "Starts your hosted machine on the event's compute grant (one at a time): a sandboxed workspace (no network) holding the " +
          "event's train split as CSV, charged at the rate card for the simulated time it runs. It stops after the event's idle time " +
          "without a command, at the daily maximum, when the grant it held runs out, or at the event's end; then its files are gone " +
          "and its records stay (list_machine_sessions).",
        input: {},
      },
    ],
  }),
  listMachines: operation({
    scope: "key",
    rate: "list_machine_sessions",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/machines",
        operationId: "list_machine_sessions",
        summary: "The caller's machine sessions, oldest first, with their charges and the commands they ran: kept after every stop",
        responses: { 200: `{machines: [${machineView}]}` },
      },
    ],
    mcp: [
      {
        name: "list_machine_sessions",
        description: "Your machine sessions, oldest first: limits, stop reason, runtime, charge, and every command run with its exit code and output.",
        input: {},
        readOnly: true,
      },
    ],
  }),
  getMachine: operation({
    scope: "key",
    rate: "get_machine",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/machines/{machine_id}",
        operationId: "get_machine",
        summary: "One of the caller's machine sessions",
        responses: { 200: machineView, 404: notFound },
      },
    ],
    mcp: [
      {
        name: "get_machine",
        description: "One of your machine sessions, running or stopped: its limits, stop reason, runtime, charge, and every command run with its exit code and output.",
        input: machineId,
        readOnly: true,
      },
    ],
  }),
  runOnMachine: operation({
    scope: "key",
    rate: "run_on_machine",
    rest: [
      {
        method: "POST",
        path: "/api/v1/compute/machines/{machine_id}/run",
        operationId: "run_on_machine",
        summary:
          "Runs a shell command on the caller's running machine (no network; its workspace the only writable directory); answers its output and exit code",
        body: "MachineCommandBody",
        responses: { 200: commandView, 400: texts("machine_command_invalid"), ...gate, 404: notFound, 409: texts("machine_command_cap"), 410: texts("machine_stopped") },
      },
    ],
    mcp: [
      {
        name: "run_on_machine",
        description: "Runs a shell command (sh -c) in your running machine's workspace; answers its exit code and output (the first 64 KiB). Restarts the idle count.",
        input: { ...machineId, command: z.unknown().describe("The shell command, 1 to 4096 bytes") },
        loose: true,
      },
    ],
  }),
  readMachineFile: operation({
    scope: "key",
    rate: "read_machine_file",
    rest: [
      {
        method: "GET",
        path: "/api/v1/compute/machines/{machine_id}/files/{path}",
        hono: "/api/v1/compute/machines/:machine_id/files/:path{.+}",
        operationId: "read_machine_file",
        summary: "A file from a running machine's workspace (a relative path; at most 1 MiB), as octet-stream",
        produces: "application/octet-stream",
        responses: {
          200: "the file's bytes",
          400: texts("machine_file_path_invalid"),
          404: `${notFound} | ${texts("machine_file_not_found")}`,
          410: texts("machine_stopped"),
          413: texts("machine_file_too_large"),
        },
      },
    ],
    mcp: [
      {
        name: "read_machine_file",
        description: "Reads a file (a path relative to the workspace; at most 1 MiB) from your running machine: UTF-8 text, or base64 when it is not text.",
        input: { ...machineId, path: z.string().min(1).describe("Relative to the workspace, e.g. out/summary.txt") },
        readOnly: true,
        answer: (file: { path: string; size: number; bytes: Uint8Array }) => {
          try {
            const content = new TextDecoder("utf-8", { fatal: true }).decode(file.bytes);
            return { path: file.path, size: file.size, encoding: "utf8", content };
          } catch {
            return { path: file.path, size: file.size, encoding: "base64", content: Buffer.from(file.bytes).toString("base64") };
          }
        },
      },
    ],
  }),
  stopMachine: operation({
    scope: "key",
    rate: "stop_machine",
    rest: [
      {
        method: "DELETE",
        path: "/api/v1/compute/machines/{machine_id}",
        operationId: "stop_machine",
        summary: "Stops the caller's running machine: charged its runtime, its files deleted, its records kept",
        responses: { 200: machineView, 404: notFound, 410: texts("machine_stopped") },
      },
    ],
    mcp: [
      {
        name: "stop_machine",
        description: "Stops your running machine now: charged its runtime, its files deleted, its records kept.",
        input: machineId,
      },
    ],
  }),
};
