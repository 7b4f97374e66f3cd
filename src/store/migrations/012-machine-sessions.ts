/**
 * The hosted agent's machine: one row per session and one per command run on it. A running
 * session holds `hold_cents` of the agent's compute grant (its worst case, up to `limit_stop_at`);
 * `cost_cents` is charged when it stops. Both tables outlive the session's files: they are the
 * platform's records of it.
 */
export const sql = `
CREATE TABLE machine_sessions (
  machine_id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  agent_id TEXT NOT NULL REFERENCES agents(id),
  tier TEXT NOT NULL,
  status TEXT NOT NULL,
  hold_cents INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  idle_stop_at INTEGER NOT NULL,
  limit_stop_at INTEGER NOT NULL,
  limit_reason TEXT NOT NULL,
  stopped_at INTEGER,
  stop_reason TEXT,
  runtime_seconds INTEGER,
  cost_cents INTEGER
);
CREATE INDEX machine_sessions_agent ON machine_sessions(agent_id, seq);
CREATE INDEX machine_sessions_running ON machine_sessions(status, seq);
CREATE TABLE machine_commands (
  machine_id TEXT NOT NULL REFERENCES machine_sessions(machine_id),
  n INTEGER NOT NULL,
  command TEXT NOT NULL,
  ran_at INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  exit_code INTEGER,
  output TEXT NOT NULL,
  output_bytes INTEGER NOT NULL,
  output_truncated INTEGER NOT NULL,
  PRIMARY KEY (machine_id, n)
);
`;
