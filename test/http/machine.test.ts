import { beforeAll, describe, expect, it } from "vitest";
import { processesWith } from "../helpers/process-tree.js";
import { requires } from "../helpers/requires.js";
import { until } from "../helpers/until.js";
import { ANN, BEN, PIA, eventServer, toPhase } from "./event-server.js";
import { ORGANISER, refusal, type TestServer } from "./server.js";

const MACHINES = "/api/v1/compute/machines";
const MINUTE = 60;
/** $36 an hour on the CPU tier: one cent a simulated second, so a charge in cents is the runtime in seconds. */
const compute = (budget_usd: string) => ({
  compute: { budget_usd, rate_card_usd_per_hr: { CPU: "36.00" }, machine: { idle_minutes: 10, daily_max_hours: 0.25, tier: "CPU" } },
});

let s: TestServer;
beforeAll(async () => {
  s = await eventServer(compute("20"));
});

describe("the hosted machine over REST, on simulated time", () => {
  requires("sandbox").it("runs commands in its workspace, stops when idle, loses its files and keeps its records; charges are runtime × rate", async () => {
    const started = await s.post(MACHINES, undefined, ANN);
    expect(started.status).toBe(201);
    const m = started.json;
    // The daily maximum (15 min) comes before what the $20 buys (2000 s) and the event's end.
    expect(m).toMatchObject({ status: "running", tier: "CPU", rate_usd_per_hr: "36.00", limit_reason: "daily_max", hold_cents: 900, runtime_seconds: 0 });
    expect(m.workspace).toEqual({ dir: "/tmp", train_file: "bc_train.csv", files_kept: true });
    expect((await s.get("/api/v1/compute/credits", ANN)).json).toEqual({ grant_cents: 2000, available_cents: 1100, reserved_cents: 900, total_spent_usd: 0 });
    expect(refusal(await s.post(MACHINES, undefined, ANN))).toMatchObject({ status: 409, code: "machine_already_running" });

    const run = (command: unknown) => s.post(`${MACHINES}/${m.machine_id}/run`, { command }, ANN);
    expect(refusal(await run(""))).toMatchObject({ status: 400, code: "machine_command_invalid" });
    const first = await run(`wc -l < ${m.workspace.train_file}; mkdir -p out && echo hello > out/note.txt; ln -s /etc/passwd pw; ln -s /etc etc; head -c 1048577 /dev/zero > big; python3 -c "import socket
try: socket.create_connection(('1.1.1.1', 80), 2); print('network')
except OSError: print('no-network')"`);
    expect(first.status).toBe(200);
    // 10 train expeds × 40 rows and the header; no network in the sandbox.
    expect(first.json).toMatchObject({ n: 1, outcome: "exited", exit_code: 0, output_truncated: false, ran_at: m.started_at });
    expect(first.json.output).toMatch(/^401\n[\s\S]*no-network\n$/);
    const note = await s.get(`${MACHINES}/${m.machine_id}/files/out/note.txt`, ANN);
    expect(note.status).toBe(200);
    expect(new TextDecoder().decode(note.bytes)).toBe("hello\n");
    expect(refusal(await s.get(`${MACHINES}/${m.machine_id}/files/out%2F..%2F..%2Fetc%2Fpasswd`, ANN))).toMatchObject({ status: 400, code: "machine_file_path_invalid" });
    for (const escape of ["pw", "etc/passwd"]) {
      expect(refusal(await s.get(`${MACHINES}/${m.machine_id}/files/${escape}`, ANN)), escape).toMatchObject({ status: 400, code: "machine_file_path_invalid" });
    }
    expect(refusal(await s.get(`${MACHINES}/${m.machine_id}/files/big`, ANN))).toEqual({
      status: 413,
      code: "machine_file_too_large",
      message: "big is 1048577 bytes; a machine file read is at most 1048576 bytes.",
    });
    expect(refusal(await s.get(`${MACHINES}/${m.machine_id}/files/nothing.txt`, ANN))).toMatchObject({ status: 404, message: `No file nothing.txt on machine ${m.machine_id}` });
    expect(refusal(await s.get(`${MACHINES}/${m.machine_id}/files/out/note.txt`, BEN))).toMatchObject({ status: 404, code: "machine_not_found" });

    await s.advance({ seconds: 4 * MINUTE });
    const second = await run("cat out/note.txt; head -c 70000 /dev/zero | tr '\\0' x; exit 3");
    // The record keeps the first 64 KiB of the output and counts the rest.
    expect(second.json).toMatchObject({ n: 2, outcome: "exited", exit_code: 3, output_bytes: 70006, output_truncated: true });
    expect(second.json.output).toBe(`hello\n${"x".repeat(65536 - 6)}`);
    // Idle from the second command: it stops 10 minutes later, 14 minutes in, not before.
    await s.advance({ seconds: 10 * MINUTE - 1 });
    expect((await s.get(`${MACHINES}/${m.machine_id}`, ANN)).json).toMatchObject({ status: "running", runtime_seconds: 14 * MINUTE - 1 });
    await s.advance({ seconds: 30 });
    const stopped = (await s.get(`${MACHINES}/${m.machine_id}`, ANN)).json;
    expect(stopped).toMatchObject({ status: "stopped", stop_reason: "idle", runtime_seconds: 14 * MINUTE, cost_cents: 14 * MINUTE, workspace: { files_kept: false } });
    expect(stopped.stopped_at).toBe(new Date(Date.parse(m.started_at) + 14 * MINUTE * 1000).toISOString());

    const gone = refusal(await s.get(`${MACHINES}/${m.machine_id}/files/out/note.txt`, ANN));
    expect(gone).toEqual({
      status: 410,
      code: "machine_stopped",
      message: `Machine ${m.machine_id} stopped at ${stopped.stopped_at} (idle); its files are gone. Its records stay in list_machine_sessions.`,
    });
    expect(refusal(await run("ls"))).toMatchObject({ status: 410, code: "machine_stopped" });
    expect(refusal(await s.call("DELETE", `${MACHINES}/${m.machine_id}`, { key: ANN }))).toMatchObject({ status: 410 });

    const records = (await s.get(MACHINES, ANN)).json.machines;
    expect(records).toHaveLength(1);
    expect(records[0].commands.map((c: { n: number; exit_code: number }) => [c.n, c.exit_code])).toEqual([[1, 0], [2, 3]]);
    expect(records[0].commands[0].command).toContain("wc -l");
    expect((await s.get("/api/v1/compute/credits", ANN)).json).toEqual({ grant_cents: 2000, available_cents: 2000 - 840, reserved_cents: 0, total_spent_usd: 8.4 });
  });

  requires("sandbox").it("answers other callers while a command runs, and records nothing for a command whose machine stopped meanwhile", async () => {
    const o = await eventServer(compute("20"));
    const m = (await o.post(MACHINES, undefined, ANN)).json;
    const order: string[] = [];
    const run = (command: string) => o.post(`${MACHINES}/${m.machine_id}/run`, { command }, ANN).then((a) => (order.push("run"), a));
    const running = run("touch started; sleep 1; echo done");
    // Once the command is under way (its file is there), another agent's call is answered before it ends.
    await until(async () => (await o.get(`${MACHINES}/${m.machine_id}/files/started`, ANN)).status === 200);
    expect(order).toEqual([]);
    const status = await o.get("/api/v1/status", BEN).then((a) => (order.push("status"), a));
    expect(status.status).toBe(200);
    expect(order).toEqual(["status"]);
    expect((await running).json).toMatchObject({ n: 1, outcome: "exited", exit_code: 0, output: "done\n", ran_at: m.started_at });

    // Past the 10 idle minutes counted from that command: the next, not yet recorded, does not hold the machine.
    const late = run("sleep 1");
    await o.advance({ seconds: 11 * MINUTE });
    expect(refusal(await late)).toMatchObject({ status: 410, code: "machine_stopped" });
    expect((await o.get(MACHINES, ANN)).json.machines).toMatchObject([{ status: "stopped", stop_reason: "idle", commands: [{ n: 1 }] }]);
    expect((await o.get(MACHINES, ANN)).json.machines[0].commands).toHaveLength(1);
  });

  requires("sandbox").it("kills a running command's processes at once when its machine stops, by DELETE or when idle", async () => {
    // A command may run 600 s here: unkilled, the sleep below would outlast the test's own timeout
    // (180 s), so the command's answer coming at all is the sign it was killed, on any machine's speed.
    const settings = compute("20");
    const o = await eventServer({ compute: { ...settings.compute, machine: { ...settings.compute.machine, command_seconds: 600 } } });
    for (const [i, stop] of (["DELETE", "idle"] as const).entries()) {
      const m = (await o.post(MACHINES, undefined, ANN)).json;
      // Its duration names it in /proc.
      const seconds = `590.${process.pid}${i}`;
      const command = `sleep ${seconds}; echo done`;
      const running = o.post(`${MACHINES}/${m.machine_id}/run`, { command }, ANN);
      await until(() => processesWith(seconds).length > 0);
      expect(processesWith(seconds)).toHaveLength(1);
      if (stop === "DELETE") expect((await o.call("DELETE", `${MACHINES}/${m.machine_id}`, { key: ANN })).json).toMatchObject({ stop_reason: "stopped" });
      else await o.advance({ seconds: 11 * MINUTE });
      // It answers as a command whose machine stopped meanwhile does, with nothing of it left running.
      expect(refusal(await running)).toMatchObject({ status: 410, code: "machine_stopped" });
      expect([...processesWith(seconds), ...processesWith(command)]).toEqual([]);
    }
    expect((await o.get(MACHINES, ANN)).json.machines).toMatchObject([
      { stop_reason: "stopped", commands: [] },
      { stop_reason: "idle", commands: [] },
    ]);
  });

  it("stops at the daily maximum, then refuses a start until the next simulated day", async () => {
    const agent = BEN;
    const m = (await s.post(MACHINES, undefined, agent)).json;
    expect(m).toMatchObject({ limit_reason: "daily_max", hold_cents: 900 });
    await s.advance({ seconds: 5 * MINUTE });
    const early = (await s.call("DELETE", `${MACHINES}/${m.machine_id}`, { key: agent })).json;
    expect(early).toMatchObject({ status: "stopped", stop_reason: "stopped", runtime_seconds: 5 * MINUTE, cost_cents: 5 * MINUTE });
    // 10 of the day's 15 minutes are left: the next session's hard stop, before its 10 idle minutes run out (at the same instant: the limit wins).
    const next = (await s.post(MACHINES, undefined, agent)).json;
    expect(next).toMatchObject({ limit_reason: "daily_max", hold_cents: 10 * MINUTE });
    await s.advance({ seconds: 11 * MINUTE });
    expect((await s.get(`${MACHINES}/${next.machine_id}`, agent)).json).toMatchObject({ status: "stopped", stop_reason: "daily_max", runtime_seconds: 10 * MINUTE, cost_cents: 10 * MINUTE });
    expect(refusal(await s.post(MACHINES, undefined, agent))).toEqual({
      status: 409,
      code: "machine_daily_max",
      message: "The hosted machine has run its daily maximum of 0.25 h on 2026-09-23; it can start again at 2026-09-24T00:00:00.000Z.",
    });
    expect((await s.get("/api/v1/compute/credits", agent)).json).toMatchObject({ reserved_cents: 0, total_spent_usd: 9 });
    expect((await s.get(MACHINES, agent)).json.machines.map((x: { cost_cents: number }) => x.cost_cents)).toEqual([300, 600]);
  });

  it("is refused while compute is paused, to other scopes, once the event is over, and on an event without a budget", async () => {
    const p = await eventServer(compute("20"));
    const m = (await p.post(MACHINES, undefined, ANN)).json;
    await p.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "compute_paused", on: true } });
    expect(refusal(await p.post(`${MACHINES}/${m.machine_id}/run`, { command: "ls" }, ANN))).toMatchObject({ status: 503, code: "compute_paused" });
    expect(refusal(await p.post(MACHINES, undefined, BEN))).toEqual({
      status: 503,
      code: "compute_paused",
      message: "Hosted compute is paused by an administrator; launches resume when it is switched back on.",
    });
    await p.call("POST", "/sim/v1/faults", { key: ORGANISER, body: { fault: "compute_paused", on: false } });
    expect(refusal(await p.post(MACHINES, undefined, PIA))).toMatchObject({ status: 403, code: "insufficient_scope" });
    await toPhase(p, "done");
    expect(refusal(await p.post(MACHINES, undefined, BEN))).toEqual({
      status: 403,
      code: "compute_not_live",
      message: "Hosted compute is not live: the event is in its done phase.",
    });
    // ANN's machine, left running while paused, stopped when idle; the records stay readable after the event.
    expect((await p.get(MACHINES, ANN)).json.machines).toMatchObject([{ machine_id: m.machine_id, status: "stopped", stop_reason: "idle", cost_cents: 600 }]);

    const bare = await eventServer({});
    expect(refusal(await bare.post(MACHINES, undefined, ANN))).toEqual({
      status: 403,
      code: "compute_no_budget",
      message: "Hosted compute is not available: this event has no compute budget.",
    });
  });
});
