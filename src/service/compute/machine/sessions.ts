import { iso } from "../../../domain/clock.js";
import { refuse } from "../../../domain/errors.js";
import { serviceId } from "../../../domain/ids.js";
import { runShell } from "../../../participant/run-shell.js";
import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import { nextInSequence } from "../../../store/sequence.js";
import type { Principal } from "../../kernel/auth.js";
import type { ServiceContext } from "../../kernel/context.js";
import { costCents } from "../estimate.js";
import { requireComputeLive, requireComputeScope } from "../gate.js";
import { credits } from "../jobs.js";
import { rateCard, rateMicroPerHour, type GpuTier } from "../../kernel/settings/compute.js";
import { readWorkspaceFile } from "./machine-file.js";
import { commandOf, lastCommandNumber, machineById, machinesOf, runningMachineOf, type CommandRow, type LimitReason, type MachineRow, extendIdleStop, insertCommand, insertMachine } from "../../../store/machines.js";
import { stopMachineAt } from "./machine-steps.js";
import { commandView, machineView, type CommandView, type MachineView } from "./machine-view.js";
import { idleMs, machineSettings } from "../../kernel/settings/machine.js";
import { discardWorkspace, keepWorkspace, makeWorkspace, workspaceOf } from "./workspace.js";

/** The longest command taken, in UTF-8 bytes. */
const MAX_COMMAND_BYTES = 4096;
/** Output bytes a command's record keeps (stdout and stderr together); the rest is counted. */
export const MAX_OUTPUT_BYTES = 64 * 1024;
/** The most commands one session runs and keeps on record. */
export const MAX_COMMANDS = 200;
/** The shortest run a start must be able to afford. */
const MIN_RUN_SECONDS = 60;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Starts the caller's hosted machine (one at a time), gated as hosted compute is (gate.ts: not
 * started, not live, no budget, paused). Its hard stop is fixed now: the first of what is left of
 * the agent's daily maximum, the seconds its available credit buys at the tier's rate, and the
 * event's end; that worst case is held from the grant. Its workspace holds the event's train split.
 */
export async function startMachine(ctx: ServiceContext, p: Principal): Promise<MachineView> {
  requireComputeScope(p, "the hosted machine");
  requireComputeLive(ctx);
  const settings = machineSettings(ctx);
  const t = ctx.clock.now();
  // A start runs whole on the service's serial path: nothing changes between the plan and the record.
  const { limitReason, limitSeconds, rate } = planStart(ctx, p, settings.tier, settings.daily_max_hours, t);
  // The workspace is made before the session is recorded: a failure to make it leaves no running machine behind.
  const ws = await makeWorkspace(ctx);
  let id: string;
  try {
    id = inTransaction(ctx.db, () => {
      const seq = nextInSequence(ctx.db, "machine");
      const machineId = serviceId("mach", ctx.world.deployment.seed, "machine", seq);
      const hold = costCents(limitSeconds, rate);
      const idleStop = t + idleMs(settings);
      const limitStop = t + limitSeconds * 1000;
      insertMachine(ctx.db, {
        machine_id: machineId, seq, agent_id: p.agent_id, tier: settings.tier, hold_cents: hold, started_at: t,
        idle_stop_at: idleStop, limit_stop_at: limitStop, limit_reason: limitReason,
      });
      appendEvent(ctx.db, t, "machine.started", {
        machine_id: machineId,
        agent: p.agent,
        tier: settings.tier,
        rate_usd_per_hr: rateCard(ctx)[settings.tier],
        hold_cents: hold,
        idle_stop_at: iso(idleStop),
        limit_stop_at: iso(limitStop),
        limit_reason: limitReason,
      });
      return machineId;
    });
  } catch (e) {
    await discardWorkspace(ws);
    throw e;
  }
  keepWorkspace(ctx, id, ws);
  return machineView(ctx, machineById(ctx.db, id) as MachineRow);
}

/**
 * A start's refusals and its hard limit at `t`: the first of what is left of the agent's daily
 * maximum, the seconds its available credit buys (whole seconds whose rounded-up cost fits the
 * credit, so the hold never exceeds it) and the event's end.
 */
function planStart(ctx: ServiceContext, p: Principal, tier: GpuTier, dailyMaxHours: number, t: number) {
  const running = runningMachineOf(ctx.db, p.agent_id);
  if (running) throw refuse("machine_already_running", { machine_id: running.machine_id });
  const rate = rateMicroPerHour(ctx, tier);
  const daily = dailyLeftSeconds(ctx, p.agent_id, t, dailyMaxHours);
  if (daily <= 0) {
    const day = Math.floor(t / DAY_MS) * DAY_MS;
    throw refuse("machine_daily_max", { hours: dailyMaxHours, day: iso(day).slice(0, 10), next: iso(day + DAY_MS) });
  }
  const { available_cents } = credits(ctx, p.agent_id);
  const affordable = affordableSeconds(available_cents, rate);
  if (affordable < MIN_RUN_SECONDS) {
    throw refuse("machine_no_credit", { available_cents, tier, minute_cents: costCents(MIN_RUN_SECONDS, rate) });
  }
  const eventEnd = Math.floor((ctx.world.schedule.phases.at(-1)!.start - t) / 1000);
  const limits: [LimitReason, number][] = [["daily_max", daily], ["budget", affordable], ["event_end", eventEnd]];
  const [limitReason, limitSeconds] = limits.reduce((a, b) => (b[1] < a[1] ? b : a));
  return { rate, limitReason, limitSeconds };
}

/** The most whole seconds whose cost, rounded up to the cent (costCents), is within `cents`. */
export function affordableSeconds(cents: number, rate: number): number {
  if (rate === 0) return Number.POSITIVE_INFINITY;
  let s = Math.floor((cents * 3600 * 10_000) / rate);
  // The division is in floating point: step back while its rounding let the cost pass the credit.
  while (s > 0 && costCents(s, rate) > cents) s--;
  return s;
}

/**
 * Seconds of the agent's daily maximum left on the simulated UTC day of `t`: its stopped
 * sessions' time within that day is used. A session is limited by what is left on the day it
 * starts, so no day ever holds more than the maximum.
 */
function dailyLeftSeconds(ctx: ServiceContext, agentId: string, t: number, maxHours: number): number {
  const day = Math.floor(t / DAY_MS) * DAY_MS;
  const used = machinesOf(ctx.db, agentId).reduce((ms, r) => {
    const from = Math.max(r.started_at, day);
    const to = Math.min(r.stopped_at ?? t, day + DAY_MS);
    return ms + Math.max(0, to - from);
  }, 0);
  return Math.floor((maxHours * 3600 * 1000 - used) / 1000);
}

/** How a machine command reaches the store: its short steps on the service's serial path (the upload path's `serial`). */
export interface MachinePath {
  serial<T>(fn: () => T): Promise<T>;
}

/**
 * Runs one shell command on the caller's running machine, in the sandbox with its workspace as
 * working directory, bounded in real time (the scenario's command_seconds), output and rlimits.
 * Gated like a start (a paused compute refuses it). The machine and the refusals are checked on
 * the serial path; the command runs off it (other callers are answered meanwhile); its result is
 * recorded on the serial path again, if the machine is still running (else 410: the stop killed
 * the command's processes at once, as it discarded the workspace). It happens at the simulated
 * instant it was asked at: real time never enters the charge; it restarts the idle count. The log
 * keeps what the caller decided (the command and its instant); the records also keep its outcome,
 * exit code and kept output.
 */
export async function runOnMachine(ctx: ServiceContext, path: MachinePath, p: Principal, machineId: string, body: Record<string, unknown>): Promise<CommandView> {
  const { t, command, ws } = await path.serial(async () => {
    requireComputeScope(p, "the hosted machine");
    requireComputeLive(ctx);
    const row = ownRunning(ctx, p, machineId);
    const command = parseCommand(body);
    commandNumber(ctx, row);
    // Taken on the serial path too: a stop cannot come between the check and the workspace.
    return { t: ctx.clock.now(), command, ws: await workspaceOf(ctx, machineId) };
  });
  const settings = machineSettings(ctx);
  // A stop meanwhile discards the workspace, which kills the command at once (then refused below: 410).
  const ran = await runShell({
    workspace: ws.scratch,
    runner: ws.runner,
    command,
    timeout_seconds: settings.command_seconds,
    max_output_bytes: MAX_OUTPUT_BYTES,
    abort: ws.discarded.signal,
  });
  const output = ran.output.toString("utf8");
  return path.serial(() =>
    inTransaction(ctx.db, () => {
      const row = ownRunning(ctx, p, machineId);
      const n = commandNumber(ctx, row);
      insertCommand(ctx.db, {
        machine_id: machineId, n, command, ran_at: t, outcome: ran.outcome, exit_code: ran.exit_code, output,
        output_bytes: ran.output_bytes, output_truncated: ran.truncated ? 1 : 0,
      });
      extendIdleStop(ctx.db, machineId, t + idleMs(settings));
      appendEvent(ctx.db, t, "machine.command", { machine_id: machineId, n, command });
      return commandView(commandOf(ctx.db, machineId, n) as CommandRow);
    }),
  );
}

/** The number the session's next command takes; refused once the session holds MAX_COMMANDS. */
function commandNumber(ctx: ServiceContext, row: MachineRow): number {
  const n = lastCommandNumber(ctx.db, row.machine_id) + 1;
  if (n > MAX_COMMANDS) throw refuse("machine_command_cap", { machine_id: row.machine_id, limit: MAX_COMMANDS });
  return n;
}

function parseCommand(body: Record<string, unknown>): string {
  const unknown = Object.keys(body).filter((k) => k !== "command");
  if (unknown.length > 0) throw refuse("machine_command_invalid", { message: `unknown fields ${unknown.join(", ")}; the body is {command}` });
  const { command } = body;
  if (typeof command !== "string" || command.trim().length === 0) throw refuse("machine_command_invalid", { message: "a non-empty string is required" });
  if (Buffer.byteLength(command) > MAX_COMMAND_BYTES) throw refuse("machine_command_invalid", { message: `at most ${MAX_COMMAND_BYTES} bytes` });
  if (command.includes("\0")) throw refuse("machine_command_invalid", { message: "no NUL characters" });
  return command;
}

/** A file from the caller's running machine's workspace (machine-file.ts); after a stop, 410: its files are gone. */
export async function readMachineFile(ctx: ServiceContext, p: Principal, machineId: string, path: string) {
  requireComputeScope(p, "the hosted machine");
  ownRunning(ctx, p, machineId);
  const ws = await workspaceOf(ctx, machineId);
  return readWorkspaceFile(ws.scratch, path, machineId);
}

/** Stops the caller's running machine now: charged its runtime, its files deleted, its records kept. */
export async function stopMachine(ctx: ServiceContext, p: Principal, machineId: string): Promise<MachineView> {
  requireComputeScope(p, "the hosted machine");
  const row = ownRunning(ctx, p, machineId);
  await stopMachineAt(ctx, row, ctx.clock.now(), "stopped");
  return machineView(ctx, machineById(ctx.db, machineId) as MachineRow);
}

/** The caller's machine sessions, oldest first, each with its commands: the platform's records, kept after every stop. */
export function listMachines(ctx: ServiceContext, p: Principal): { machines: MachineView[] } {
  requireComputeScope(p, "the hosted machine");
  return { machines: machinesOf(ctx.db, p.agent_id).map((r) => machineView(ctx, r)) };
}

export function getMachine(ctx: ServiceContext, p: Principal, machineId: string): MachineView {
  requireComputeScope(p, "the hosted machine");
  return machineView(ctx, ownMachine(ctx, p, machineId));
}

/** The caller's session; another agent's answers as not found. */
function ownMachine(ctx: ServiceContext, p: Principal, machineId: string): MachineRow {
  const row = machineById(ctx.db, machineId);
  if (!row || row.agent_id !== p.agent_id) throw refuse("machine_not_found", { machine_id: machineId });
  return row;
}

/** The caller's session, still running: a stopped one answers 410 (its files are gone), naming when and why. */
function ownRunning(ctx: ServiceContext, p: Principal, machineId: string): MachineRow {
  const row = ownMachine(ctx, p, machineId);
  if (row.status !== "running") {
    throw refuse("machine_stopped", { machine_id: machineId, stopped_at: iso(row.stopped_at as number), reason: row.stop_reason as string });
  }
  return row;
}
