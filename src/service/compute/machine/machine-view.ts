import { iso } from "../../../domain/clock.js";
import type { ServiceContext } from "../../kernel/context.js";
import { costCents } from "../estimate.js";
import { rateCard, rateMicroPerHour, type GpuTier } from "../../kernel/settings/compute.js";
import { commandsOf, type CommandRow, type MachineRow } from "../../../store/machines.js";
import { SANDBOX_SCRATCH } from "../../../participant/sandbox.js";
import { trainFileName } from "./workspace.js";

export interface CommandView {
  n: number;
  command: string;
  ran_at: string;
  outcome: CommandRow["outcome"];
  exit_code: number | null;
  output: string;
  output_bytes: number;
  output_truncated: boolean;
}

/** A machine session as its owner reads it: limits, charge, and every command it ran; kept after its files are gone. */
export interface MachineView {
  machine_id: string;
  status: MachineRow["status"];
  tier: string;
  rate_usd_per_hr: string;
  started_at: string;
  /** Where the machine stops if no command runs before then. */
  idle_stop_at: string;
  /** Its hard stop, fixed at start: the daily maximum, the grant it could afford, or the event's end. */
  limit_stop_at: string;
  limit_reason: MachineRow["limit_reason"];
  stopped_at: string | null;
  stop_reason: MachineRow["stop_reason"];
  /** Simulated seconds it ran: until now while running, until its stop once stopped. */
  runtime_seconds: number;
  hold_cents: number;
  /** What it has cost so far at the rate card (charged once it stops). */
  accrued_cents: number;
  cost_cents: number | null;
  /** The working directory its commands see, the train split's file in it, and whether its files still exist. */
  workspace: { dir: string; train_file: string; files_kept: boolean };
  commands: CommandView[];
}

export function commandView(c: CommandRow): CommandView {
  return {
    n: c.n,
    command: c.command,
    ran_at: iso(c.ran_at),
    outcome: c.outcome,
    exit_code: c.exit_code,
    output: c.output,
    output_bytes: c.output_bytes,
    output_truncated: c.output_truncated === 1,
  };
}

/** Whole simulated seconds from start to `t`, rounded up: what a session is charged for. */
export function ranSeconds(row: MachineRow, t: number): number {
  return Math.ceil(Math.max(0, t - row.started_at) / 1000);
}

export function machineView(ctx: ServiceContext, row: MachineRow): MachineView {
  const running = row.status === "running";
  const runtime = running ? ranSeconds(row, ctx.clock.now()) : (row.runtime_seconds as number);
  const tier = row.tier as GpuTier; // written by startMachine from the deployment's tiers
  return {
    machine_id: row.machine_id,
    status: row.status,
    tier,
    rate_usd_per_hr: rateCard(ctx)[tier],
    started_at: iso(row.started_at),
    idle_stop_at: iso(row.idle_stop_at),
    limit_stop_at: iso(row.limit_stop_at),
    limit_reason: row.limit_reason,
    stopped_at: row.stopped_at === null ? null : iso(row.stopped_at),
    stop_reason: row.stop_reason,
    runtime_seconds: runtime,
    hold_cents: row.hold_cents,
    accrued_cents: running ? Math.min(row.hold_cents, costCents(runtime, rateMicroPerHour(ctx, tier))) : (row.cost_cents as number),
    cost_cents: row.cost_cents,
    workspace: { dir: SANDBOX_SCRATCH, train_file: trainFileName(ctx), files_kept: running },
    commands: commandsOf(ctx.db, row.machine_id).map(commandView),
  };
}
