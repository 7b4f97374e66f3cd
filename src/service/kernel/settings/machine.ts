import type { ServiceContext } from "../context.js";
import type { GpuTier } from "./compute.js";

/**
 * The hosted machine's limits, set per event under `event.compute.machine`. The spec says only
 * that the machine stops after idle time and has a daily maximum; the numbers are the scenario's.
 */
export interface MachineSettings {
  /** Minutes without a command run after which the machine stops. */
  idle_minutes: number;
  /** Hours an agent's machine may run per simulated UTC day. */
  daily_max_hours: number;
  /** The rate-card tier the machine is charged at. */
  tier: GpuTier;
  /** Real seconds one command may take (also its CPU-seconds limit) before it is stopped. */
  command_seconds: number;
  /** The workspace's size in MiB for the whole session: a command that fills it gets "No space left on device" (a tmpfs where the host can mount one). */
  workspace_mb: number;
}

const defaultMachineSettings: MachineSettings = { idle_minutes: 30, daily_max_hours: 8, tier: "CPU", command_seconds: 60, workspace_mb: 2048 };

/** The event's machine settings, each the default where the scenario names none. */
export function machineSettings(ctx: ServiceContext): MachineSettings {
  return { ...defaultMachineSettings, ...ctx.world.deployment.event?.compute?.machine };
}

/** The idle time in whole milliseconds (a scenario may give fractional minutes). */
export function idleMs(settings: MachineSettings): number {
  return Math.round(settings.idle_minutes * 60_000);
}
