import { describe, expect, it } from "vitest";
import { requires } from "../helpers/requires.js";
import { ANN, BEN, PIA, eventServer, toPhase } from "../http/event-server.js";
import { callTool, mcpClient } from "./client.js";

/** A $1 grant at $36 an hour (a cent a second): the machine can afford 100 simulated seconds; a command may take 1 real second. */
const funded = {
  pre_event_minutes: 30,
  compute: { budget_usd: "1", rate_card_usd_per_hr: { CPU: "36.00" }, machine: { idle_minutes: 30, command_seconds: 1 } },
};

describe("the hosted machine over MCP", () => {
  requires("sandbox").it("is refused before the event opens; then runs until its held grant runs out, and refuses a start without credit", async () => {
    const s = await eventServer(funded);
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const early = await callTool(ann, "start_machine");
    expect(early.isError).toBe(true);
    expect(early.json.detail).toMatchObject({ code: "hackathon_not_started", message: "Your hackathon has not started yet" });

    await toPhase(s, "build");
    const m = (await callTool(ann, "start_machine")).json;
    expect(m).toMatchObject({ status: "running", limit_reason: "budget", hold_cents: 100 });
    expect(Date.parse(m.limit_stop_at) - Date.parse(m.started_at)).toBe(100_000);

    const bad = await callTool(ann, "run_on_machine", { machine_id: m.machine_id, command: "ls", shell: "bash" });
    expect(bad.json.detail).toMatchObject({ code: "machine_command_invalid", message: "command: unknown fields shell; the body is {command}" });
    // Past its one real second the command is stopped; what it wrote before stays in the workspace.
    const slow = (await callTool(ann, "run_on_machine", { machine_id: m.machine_id, command: "printf 'a\\377b' > bin; echo text > t.txt; sleep 30" })).json;
    expect(slow).toMatchObject({ n: 1, outcome: "timeout", exit_code: null });
    expect((await callTool(ann, "read_machine_file", { machine_id: m.machine_id, path: "t.txt" })).json).toEqual({ path: "t.txt", size: 5, encoding: "utf8", content: "text\n" });
    expect((await callTool(ann, "read_machine_file", { machine_id: m.machine_id, path: "./bin" })).json).toEqual({ path: "bin", size: 3, encoding: "base64", content: "Yf9i" });

    await s.advance({ seconds: 120 });
    const [record] = (await callTool(ann, "list_machine_sessions")).json.machines;
    expect(record).toMatchObject({ status: "stopped", stop_reason: "budget", runtime_seconds: 100, cost_cents: 100, commands: [{ n: 1, outcome: "timeout" }] });
    expect((await callTool(ann, "read_machine_file", { machine_id: m.machine_id, path: "t.txt" })).json.detail).toMatchObject({ code: "machine_stopped" });
    expect((await callTool(ann, "stop_machine", { machine_id: m.machine_id })).json.detail).toMatchObject({ code: "machine_stopped" });
    expect((await callTool(ann, "get_compute_credits")).json).toEqual({ grant_cents: 100, available_cents: 0, reserved_cents: 0, total_spent_usd: 1 });
    expect((await callTool(ann, "start_machine")).json.detail).toMatchObject({
      code: "machine_no_credit",
      message: "Not enough compute credit to start a machine: 0 cents are available and its first minute on CPU costs 60 cents.",
    });
  });

  it("stops on request, charged for the simulated time it ran; get_machine reads the one session, as GET /compute/machines/{id} does", async () => {
    const s = await eventServer({ compute: { ...funded.compute, budget_usd: "5" } });
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "start_machine")).json;
    await s.advance({ seconds: 42 });
    const running = await callTool(ann, "get_machine", { machine_id: m.machine_id });
    expect(running.isError).toBeFalsy();
    expect(running.json).toMatchObject({ machine_id: m.machine_id, status: "running", runtime_seconds: 42, accrued_cents: 42 });
    expect((await callTool(ann, "stop_machine", { machine_id: m.machine_id })).json).toMatchObject({ status: "stopped", stop_reason: "stopped", runtime_seconds: 42, cost_cents: 42 });
    const stopped = (await callTool(ann, "get_machine", { machine_id: m.machine_id })).json;
    expect(stopped).toEqual((await s.get(`/api/v1/compute/machines/${m.machine_id}`, ANN)).json);
    expect(stopped).toMatchObject({ status: "stopped", stop_reason: "stopped", cost_cents: 42, workspace: { files_kept: false } });
    // Another agent's session answers as not found; another scope is refused.
    const ben = await mcpClient(s.url, { "X-API-Key": BEN });
    const other = await callTool(ben, "get_machine", { machine_id: m.machine_id });
    expect(other.isError).toBe(true);
    expect(other.json.detail).toMatchObject({ code: "machine_not_found", message: `Machine ${m.machine_id} not found` });
    const pia = await mcpClient(s.url, { "X-API-Key": PIA });
    expect((await callTool(pia, "get_machine", { machine_id: m.machine_id })).json.detail).toMatchObject({ code: "insufficient_scope" });
    expect((await callTool(ann, "get_compute_credits")).json).toMatchObject({ available_cents: 458, total_spent_usd: 0.42 });
  });

  it("stops at the event's end when that comes before its idle stop, its daily maximum and its credit", async () => {
    const s = await eventServer({ compute: { budget_usd: "5", machine: { idle_minutes: 600 } } });
    const ann = await mcpClient(s.url, { "X-API-Key": ANN });
    const m = (await callTool(ann, "start_machine")).json;
    expect(m).toMatchObject({ limit_reason: "event_end", rate_usd_per_hr: "0.10" });
    await toPhase(s, "done");
    const [record] = (await callTool(ann, "list_machine_sessions")).json.machines;
    const runtime = (Date.parse(m.limit_stop_at) - Date.parse(m.started_at)) / 1000;
    // $0.10 an hour: the charge is the runtime at that rate, rounded up to the cent.
    expect(record).toMatchObject({ status: "stopped", stop_reason: "event_end", stopped_at: m.limit_stop_at, runtime_seconds: runtime, cost_cents: Math.ceil((runtime * 0.1 * 100) / 3600) });
    expect(runtime).toBeGreaterThan(0);
  });
});
