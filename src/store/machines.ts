import type { Db } from "./db.js";
import { mayHoldRows, rowsInserted } from "./lifecycle-tables.js";

/** Why a machine stopped: its owner stopped it, it sat idle, it reached the daily maximum, the grant or the event's end. */
export type StopReason = "stopped" | "idle" | "daily_max" | "budget" | "event_end";
/** The hard limit fixed when a session starts: whichever of these comes first. */
export type LimitReason = Exclude<StopReason, "stopped" | "idle">;

export interface MachineRow {
  machine_id: string;
  seq: number;
  agent_id: string;
  /** The session's GPU tier, as the service wrote it (one of its GpuTier names). */
  tier: string;
  status: "running" | "stopped";
  hold_cents: number;
  started_at: number;
  idle_stop_at: number;
  limit_stop_at: number;
  limit_reason: LimitReason;
  stopped_at: number | null;
  stop_reason: StopReason | null;
  runtime_seconds: number | null;
  cost_cents: number | null;
}

/** How a command ended: it exited (with its code), passed its time bound and was stopped, or could not be run. */
export type CommandOutcome = "exited" | "timeout" | "failed";

export interface CommandRow {
  machine_id: string;
  n: number;
  command: string;
  ran_at: number;
  outcome: CommandOutcome;
  exit_code: number | null;
  output: string;
  output_bytes: number;
  output_truncated: number;
}

export function machineById(db: Db, machineId: string): MachineRow | undefined {
  return db.prepare("SELECT * FROM machine_sessions WHERE machine_id = ?").get(machineId) as MachineRow | undefined;
}

export function machinesOf(db: Db, agentId: string): MachineRow[] {
  return db.prepare("SELECT * FROM machine_sessions WHERE agent_id = ? ORDER BY seq").all(agentId) as MachineRow[];
}

export function runningMachineOf(db: Db, agentId: string): MachineRow | undefined {
  return db.prepare("SELECT * FROM machine_sessions WHERE agent_id = ? AND status = 'running'").get(agentId) as MachineRow | undefined;
}

/** Every running session, in start order. */
export function runningMachines(db: Db): MachineRow[] {
  if (!mayHoldRows(db, "machine_sessions")) return [];
  return db.prepare("SELECT * FROM machine_sessions WHERE status = 'running' ORDER BY seq").all() as MachineRow[];
}

export function commandsOf(db: Db, machineId: string): CommandRow[] {
  return db.prepare("SELECT * FROM machine_commands WHERE machine_id = ? ORDER BY n").all(machineId) as CommandRow[];
}

export function commandOf(db: Db, machineId: string, n: number): CommandRow | undefined {
  return db.prepare("SELECT * FROM machine_commands WHERE machine_id = ? AND n = ?").get(machineId, n) as CommandRow | undefined;
}

/** The number of the session's last command (0 before its first). */
export function lastCommandNumber(db: Db, machineId: string): number {
  return (db.prepare("SELECT COALESCE(MAX(n), 0) AS n FROM machine_commands WHERE machine_id = ?").get(machineId) as { n: number }).n;
}

/** An agent's machine money in cents: held by its running session, and charged by its stopped ones. */
export function machineCents(db: Db, agentId: string): { reserved: number; spent: number } {
  return db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN status = 'running' THEN hold_cents ELSE 0 END), 0) AS reserved,
              COALESCE(SUM(COALESCE(cost_cents, 0)), 0) AS spent
       FROM machine_sessions WHERE agent_id = ?`,
    )
    .get(agentId) as { reserved: number; spent: number };
}

/** Starts a session. */
export function insertMachine(
  db: Db,
  m: Pick<MachineRow, "machine_id" | "seq" | "agent_id" | "tier" | "hold_cents" | "started_at" | "idle_stop_at" | "limit_stop_at" | "limit_reason">,
): void {
  rowsInserted(db, "machine_sessions");
  db.prepare(
    `INSERT INTO machine_sessions (machine_id, seq, agent_id, tier, status, hold_cents, started_at, idle_stop_at, limit_stop_at, limit_reason)
           VALUES (?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
  ).run(m.machine_id, m.seq, m.agent_id, m.tier, m.hold_cents, m.started_at, m.idle_stop_at, m.limit_stop_at, m.limit_reason);
}

export function insertCommand(db: Db, c: CommandRow): void {
  db.prepare(
    `INSERT INTO machine_commands (machine_id, n, command, ran_at, outcome, exit_code, output, output_bytes, output_truncated)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(c.machine_id, c.n, c.command, c.ran_at, c.outcome, c.exit_code, c.output, c.output_bytes, c.output_truncated);
}

/** Moves the session's idle stop to `at`, never back: a later command, recorded first, may have set a later one. */
export function extendIdleStop(db: Db, machineId: string, at: number): void {
  db.prepare("UPDATE machine_sessions SET idle_stop_at = MAX(idle_stop_at, ?) WHERE machine_id = ?").run(at, machineId);
}

export function stopMachineRow(db: Db, machineId: string, s: { stopped_at: number; stop_reason: StopReason; runtime_seconds: number; cost_cents: number }): void {
  db.prepare("UPDATE machine_sessions SET status = 'stopped', stopped_at = ?, stop_reason = ?, runtime_seconds = ?, cost_cents = ? WHERE machine_id = ?").run(
    s.stopped_at,
    s.stop_reason,
    s.runtime_seconds,
    s.cost_cents,
    machineId,
  );
}
