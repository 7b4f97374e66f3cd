import { inTransaction } from "../../../store/db.js";
import { appendEvent } from "../../../store/event-log.js";
import type { ServiceContext } from "../../kernel/context.js";
import { costCents } from "../estimate.js";
import { rateMicroPerHour, type GpuTier } from "../../kernel/settings/compute.js";
import { machineById, runningMachines, type MachineRow, type StopReason, stopMachineRow } from "../../../store/machines.js";
import { ranSeconds } from "./machine-view.js";
import { dropWorkspace } from "./workspace.js";

/** A running machine's stop, due at `t`: its idle time ran out, or its hard limit came. */
export interface MachineStep {
  t: number;
  machine_id: string;
  reason: StopReason;
}

/** Where a running session stops on its own: the idle stop, unless its hard limit comes first (or at the same instant). */
function nextStop(row: MachineRow): MachineStep {
  return row.limit_stop_at <= row.idle_stop_at
    ? { t: row.limit_stop_at, machine_id: row.machine_id, reason: row.limit_reason }
    : { t: row.idle_stop_at, machine_id: row.machine_id, reason: "idle" };
}

/** Every machine stop due by `now` (the clock's advance stops each at its own simulated instant). */
export function dueMachineSteps(ctx: ServiceContext, now: number): MachineStep[] {
  return runningMachines(ctx.db)
    .map(nextStop)
    .filter((s) => s.t <= now);
}

export async function applyMachineStep(ctx: ServiceContext, step: MachineStep): Promise<void> {
  const row = machineById(ctx.db, step.machine_id);
  if (row?.status !== "running") return;
  await stopMachineAt(ctx, row, step.t, step.reason);
}

/**
 * Stops a session at `t`: charged its simulated runtime at its tier's rate (never above its hold,
 * which is released), logged, and its files deleted. Its records (the session and its commands) stay.
 */
export async function stopMachineAt(ctx: ServiceContext, row: MachineRow, t: number, reason: StopReason): Promise<void> {
  const runtime = ranSeconds(row, t);
  const cost = Math.min(row.hold_cents, costCents(runtime, rateMicroPerHour(ctx, row.tier as GpuTier)));
  inTransaction(ctx.db, () => {
    stopMachineRow(ctx.db, row.machine_id, { stopped_at: t, stop_reason: reason, runtime_seconds: runtime, cost_cents: cost });
    appendEvent(ctx.db, t, "machine.stopped", { machine_id: row.machine_id, reason, runtime_seconds: runtime, cost_cents: cost });
  });
  await dropWorkspace(ctx, row.machine_id);
}
