import { route } from "../route.js";
import { texts } from "../refusal-texts.js";

const machineView =
  "MachineView {machine_id, status: running|stopped, tier, rate_usd_per_hr, started_at, idle_stop_at, limit_stop_at, " +
  "limit_reason: daily_max|budget|event_end, stopped_at, stop_reason: stopped|idle|daily_max|budget|event_end, runtime_seconds, " +
  "hold_cents, accrued_cents, cost_cents, workspace: {dir, train_file, files_kept}, commands: [CommandView]}";
const commandView = "CommandView {n, command, ran_at, outcome: exited|timeout|failed, exit_code, output, output_bytes, output_truncated}";
const gate = { 403: texts("hackathon_not_started", "compute_not_live", "compute_no_budget"), 503: texts("compute_paused") };
const notFound = texts("machine_not_found");
const machineId = (c: { req: { param(name: string): string | undefined } }) => c.req.param("machine_id") as string;

/** The hosted agent's machine (Basecamp's paths: the spec names the machine's limits, not its API). */
export const machineRoutes = [
  route({
    method: "POST",
    path: "/api/v1/compute/machines",
    operationId: "start_machine",
    summary: "Starts the caller's hosted machine (201): a sandboxed workspace holding the event's train split, charged from the compute grant at the rate card until it stops",
    key: "required",
    responses: { 201: machineView, ...gate, 409: texts("machine_already_running", "machine_daily_max", "machine_no_credit") },
    handle: async ({ c, service, key }) => c.json(await service.startMachine(key), 201),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/machines",
    operationId: "list_machine_sessions",
    summary: "The caller's machine sessions, oldest first, with their charges and the commands they ran: kept after every stop",
    key: "required",
    responses: { 200: `{machines: [${machineView}]}` },
    handle: async ({ c, service, key }) => c.json(await service.listMachines(key)),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/machines/{machine_id}",
    operationId: "get_machine",
    summary: "One of the caller's machine sessions",
    key: "required",
    responses: { 200: machineView, 404: notFound },
    handle: async ({ c, service, key }) => c.json(await service.getMachine(key, machineId(c))),
  }),
  route({
    method: "POST",
    path: "/api/v1/compute/machines/{machine_id}/run",
    operationId: "run_on_machine",
    summary: "Runs a shell command on the caller's running machine (no network; its workspace the only writable directory); answers its output and exit code",
    key: "required",
    body: "MachineCommandBody",
    responses: { 200: commandView, 400: texts("machine_command_invalid"), ...gate, 404: notFound, 409: texts("machine_command_cap"), 410: texts("machine_stopped") },
    handle: async ({ c, service, key, body }) => c.json(await service.runOnMachine(key, machineId(c), body as Record<string, unknown>)),
  }),
  route({
    method: "GET",
    path: "/api/v1/compute/machines/{machine_id}/files/{path}",
    hono: "/api/v1/compute/machines/:machine_id/files/:path{.+}",
    operationId: "read_machine_file",
    summary: "A file from a running machine's workspace (a relative path; at most 1 MiB), as octet-stream",
    key: "required",
    produces: "application/octet-stream",
    responses: {
      200: "the file's bytes",
      400: texts("machine_file_path_invalid"),
      404: `${notFound} | ${texts("machine_file_not_found")}`,
      410: texts("machine_stopped"),
      413: texts("machine_file_too_large"),
    },
    handle: async ({ c, service, key }) => {
      const file = await service.readMachineFile(key, machineId(c), c.req.param("path") as string);
      return new Response(file.bytes as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/octet-stream", "content-length": String(file.size) },
      });
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/compute/machines/{machine_id}",
    operationId: "stop_machine",
    summary: "Stops the caller's running machine: charged its runtime, its files deleted, its records kept",
    key: "required",
    responses: { 200: machineView, 404: notFound, 410: texts("machine_stopped") },
    handle: async ({ c, service, key }) => c.json(await service.stopMachine(key, machineId(c))),
  }),
];
